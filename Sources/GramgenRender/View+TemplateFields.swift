/// Templates look fields up by name. A table per view type answers without reflection or
/// dynamic casts; these tables are also the list of every field a template can use
/// (docs/templates.md). A link of a view a post's card is drawn from is `rooted`: one view of
/// each post serves pages of every depth (`SiteRenderer.postView`).
protocol TemplateFields: TemplateObject {
    static var fields: FieldTable<Self> { get }
}

extension TemplateFields {
    func field(_ name: String) -> TemplateValue { Self.fields.byName[name]?(self) ?? .missing }
    func field(_ name: FieldName) -> TemplateValue { Self.fields.value(name, of: self) }
    var fieldMask: FieldMask { Self.fields.mask }
}

extension UserView: TemplateFields {
    static let fields = FieldTable<UserView>([
        "handle": { .init($0.handle) },
        "name": { .init($0.name) },
        "href": { .init(rooted: $0.href) },
        "avatar": { .init($0.avatar) },
        "initial": { .init($0.initial) },
    ])
}

extension PostView: TemplateFields {
    static let fields = FieldTable<PostView>([
        "commentsLinkText": { .init($0.commentsLinkText) },
        "id": { .init($0.id) },
        "anchor": { .init($0.anchor) },
        "href": { .init(rooted: $0.href) },
        "author": { .init($0.author) },
        "dateISO": { .init($0.dateISO) },
        "dateText": { .init($0.dateText) },
        "location": { .init($0.location) },
        "captionHTML": { .init(rooted: $0.captionHTML) },
        "captionText": { .init($0.captionText) },
        "images": { .init($0.images) },
        "aspect": { .init($0.aspect) },
        "isCarousel": { .init($0.isCarousel) },
        "imageCount": { .init($0.imageCount) },
        "imageCountText": { .init($0.imageCountText) },
        "tile": { .init($0.tile) },
        "likes": { .init($0.likes) },
        "comments": { .init($0.comments) },
        "commentCount": { .init($0.commentCount) },
        "hasComments": { .init($0.hasComments) },
        "tags": { .init($0.tags) },
        "sensitive": { .init($0.sensitive) },
        "exif": { .init($0.exif) },
        "repost": { .init($0.repost) },
        "repostsText": { .init($0.repostsText) },
        "actions": { .init($0.actions) },
        "recentComments": { .init($0.recentComments) },
        "hasMoreComments": { .init($0.hasMoreComments) },
        "captionLong": { .init($0.captionLong) },
        "counts": { .init($0.counts) },
    ])
}

extension LogoView: TemplateFields {
    static let fields = FieldTable<LogoView>([
        "src": { .init($0.src) },
        "src2x": { .init($0.src2x) },
    ])
}

extension TileCountsView: TemplateFields {
    static let fields = FieldTable<TileCountsView>([
        "likes": { .init($0.likes) },
        "comments": { .init($0.comments) },
    ])
}

extension PostActionsView: TemplateFields {
    static let fields = FieldTable<PostActionsView>([
        "likesHref": { .init(rooted: $0.likesHref) },
        "likeCountText": { .init($0.likeCountText) },
        "commentsHref": { .init(rooted: $0.commentsHref) },
        "shareHref": { .init(rooted: $0.shareHref) },
        "saveHref": { .init(rooted: $0.saveHref) },
        "locationHref": { .init(rooted: $0.locationHref) },
    ])
}

extension ExifPhotoView: TemplateFields {
    static let fields = FieldTable<ExifPhotoView>([
        "label": { .init($0.label) },
        "items": { .init($0.items) },
    ])
}

extension ExifItemView: TemplateFields {
    static let fields = FieldTable<ExifItemView>([
        "label": { .init($0.label) },
        "value": { .init($0.value) },
    ])
}

extension LikesView: TemplateFields {
    static let fields = FieldTable<LikesView>([
        "first": { .init($0.first) },
        "othersLabel": { .init($0.othersLabel) },
        "href": { .init(rooted: $0.href) },
        "users": { .init($0.users) },
        "count": { .init($0.count) },
        "textHTML": { .init(rooted: $0.textHTML) },
    ])
}

extension CommentView: TemplateFields {
    static let fields = FieldTable<CommentView>([
        "author": { .init($0.author) },
        "html": { .init(rooted: $0.html) },
        "dateISO": { .init($0.dateISO) },
        "dateText": { .init($0.dateText) },
    ])
}

extension TagLinkView: TemplateFields {
    static let fields = FieldTable<TagLinkView>([
        "name": { .init($0.name) },
        "href": { .init(rooted: $0.href) },
        "count": { .init($0.count) },
        "countText": { .init($0.countText) },
        "nameRank": { .init($0.nameRank) },
    ])
}

extension PaginationView: TemplateFields {
    static let fields = FieldTable<PaginationView>([
        "label": { .init($0.label) },
        "current": { .init($0.current) },
        "total": { .init($0.total) },
        "previousHref": { .init($0.previousHref) },
        "nextHref": { .init($0.nextHref) },
    ])
}

extension FeedLinkView: TemplateFields {
    static let fields = FieldTable<FeedLinkView>([
        "href": { .init($0.href) },
        "type": { .init($0.type) },
        "title": { .init($0.title) },
    ])
}

extension ShareImageView: TemplateFields {
    static let fields = FieldTable<ShareImageView>([
        "url": { .init($0.url) },
        "width": { .init($0.width) },
        "height": { .init($0.height) },
        "alt": { .init($0.alt) },
    ])
}

extension TabView: TemplateFields {
    static let fields = FieldTable<TabView>([
        "label": { .init($0.label) },
        "href": { .init($0.href) },
        "current": { .init($0.current) },
    ])
}

extension ActivityView: TemplateFields {
    static let fields = FieldTable<ActivityView>([
        "kind": { .init($0.kind) },
        "actor": { .init($0.actor) },
        "textHTML": { .init($0.textHTML) },
        "post": { .init($0.post) },
        "dateISO": { .init($0.dateISO) },
        "dateText": { .init($0.dateText) },
    ])
}

extension PostRefView: TemplateFields {
    static let fields = FieldTable<PostRefView>([
        "href": { .init($0.href) },
        "tile": { .init($0.tile) },
        "sensitive": { .init($0.sensitive) },
    ])
}

extension MasonryColumnView: TemplateFields {
    static let fields = FieldTable<MasonryColumnView>([
        "items": { .objects($0) },
    ])
}

extension MasonryItemView: TemplateFields {
    static let fields = FieldTable<MasonryItemView>([
        "href": { .init(rooted: $0.href) },
        "image": { .init($0.image) },
        "author": { .init($0.author) },
        "sensitive": { .init($0.sensitive) },
        "isCarousel": { .init($0.isCarousel) },
        "imageCountText": { .init($0.imageCountText) },
        "counts": { .init($0.counts) },
    ])
}

extension PageView: TemplateFields {
    static let fields = FieldTable<PageView>([
        "preloadPoster": { .init(rooted: $0.preloadPoster) },
        "searchTexts": { .init($0.searchTexts) },
        "searchNoscriptHTML": { .init($0.searchNoscriptHTML) },
        "lang": { .init($0.lang) },
        "dir": { .init($0.dir) },
        "t": { .object($0.t) },
        "siteTitle": { .init($0.siteTitle) },
        "title": { .init($0.title) },
        "description": { .init($0.description) },
        "canonical": { .init($0.canonical) },
        "root": { .init($0.root) },
        "homeHref": { .init($0.homeHref) },
        "stylesheet": { .init($0.stylesheet) },
        "script": { .init($0.script) },
        "feeds": { .init($0.feeds) },
        "share": { .init($0.share) },
        "navHome": { .init($0.navHome) },
        "navExplore": { .init($0.navExplore) },
        "navTags": { .init($0.navTags) },
        "navSearch": { .init($0.navSearch) },
        "navPeople": { .init($0.navPeople) },
        "searchScript": { .init($0.searchScript) },
        "pagesStylesheet": { .init($0.pagesStylesheet) },
        "faviconHref": { .init($0.faviconHref) },
        "faviconType": { .init($0.faviconType) },
        "touchIconHref": { .init($0.touchIconHref) },
        "manifestHref": { .init($0.manifestHref) },
        "logo": { .init($0.logo) },
        "serviceWorker": { .init($0.serviceWorker) },
        "heading": { .init($0.heading) },
        "posts": { .init($0.posts) },
        "grid": { .init($0.grid) },
        "post": { .init($0.post) },
        "isPostPage": { .init($0.post != nil) },
        "profile": { .init($0.profile) },
        "tabs": { .init($0.tabs) },
        "tags": { .init($0.tags) },
        "sortableTags": { .init(($0.tags?.count ?? 0) > 1) },
        "columns": { .init($0.columns) },
        "activity": { .init($0.activity) },
        "people": { .init($0.people) },
        "subnav": { .init($0.subnav) },
        "previousPost": { .init($0.previousPost) },
        "nextPost": { .init($0.nextPost) },
        "hasPostNav": { .init($0.previousPost != nil || $0.nextPost != nil) },
        "more": { .init($0.more) },
        "moreHeading": { .init($0.moreHeading) },
        "subheading": { .init($0.subheading) },
        "top": { .init($0.top) },
        "backHref": { .init($0.backHref) },
        "backLabel": { .init($0.backLabel) },
        "pagination": { .init($0.pagination) },
        "empty": { .init($0.empty) },
    ])
}

extension PageView {
    /// A card kept from one page (`FragmentMemo`) may show the page's texts in the site's language
    /// (the same on every page) and draw itself as on a post page or not (part of its key).
    var sharedMask: FieldMask { FieldMask([pageTexts.number, pageIsPostPage.number]) }
    var memoContext: UInt64 { post != nil ? 1 : 2 }
}

private let pageTexts = FieldName("t"), pageIsPostPage = FieldName("isPostPage")

extension ProfileHeaderView: TemplateFields {
    static let fields = FieldTable<ProfileHeaderView>([
        "user": { .init($0.user) },
        "bioHTML": { .init($0.bioHTML) },
        "website": { .init($0.website) },
        "websiteLabel": { .init($0.websiteLabel) },
        "location": { .init($0.location) },
        "postCount": { .init($0.postCount) },
        "followerCount": { .init($0.followerCount) },
        "followingCount": { .init($0.followingCount) },
        "postsHTML": { .init($0.postsHTML) },
        "followersHTML": { .init($0.followersHTML) },
        "followingHTML": { .init($0.followingHTML) },
        "feedHref": { .init($0.feedHref) },
        "followersHref": { .init($0.followersHref) },
        "followsHref": { .init($0.followsHref) },
    ])
}

extension RepostView: TemplateFields {
    static let fields = FieldTable<RepostView>([
        "fromHTML": { .init(rooted: $0.fromHTML) },
        "author": { .init($0.author) },
        "href": { .init(rooted: $0.href) },
        "captionHTML": { .init(rooted: $0.captionHTML) },
    ])
}

extension PersonView: TemplateFields {
    static let fields = FieldTable<PersonView>([
        "user": { .init($0.user) },
        "mark": { .init($0.mark) },
        "counts": { .init($0.counts) },
        "bio": { .init($0.bio) },
    ])
}

extension PostLinkView: TemplateFields {
    static let fields = FieldTable<PostLinkView>([
        "href": { .init(rooted: $0.href) },
        "label": { .init($0.label) },
        "tile": { .init($0.tile) },
        "sensitive": { .init($0.sensitive) },
    ])
}

extension Section: TemplateObject where Item: TemplateObject {
    func field(_ name: String) -> TemplateValue { name == "items" ? .init(items) : .missing }
    func field(_ name: FieldName) -> TemplateValue { name.number == sectionItems.number ? .init(items) : .missing }
    var fieldMask: FieldMask { FieldMask([sectionItems.number]) }
}

private let sectionItems = FieldName("items")

extension PostList: TemplateObject, TemplateObjectList {
    func field(_ name: String) -> TemplateValue { name == "items" ? .objects(self) : .missing }
    func field(_ name: FieldName) -> TemplateValue { name.number == sectionItems.number ? .objects(self) : .missing }
    var fieldMask: FieldMask { FieldMask([sectionItems.number]) }

    var count: Int { posts.count }
    func item(_ index: Int) -> TemplateValue { .object(view(at: index)) }
    func memoKey(_ index: Int) -> UInt64? { index < eager ? nil : key?(posts[index]) }
}

extension SourceView: TemplateFields {
    static let fields = FieldTable<SourceView>([
        "type": { .init($0.type) },
        "srcset": { .init(rooted: $0.srcset) },
    ])
}

extension ImageView: TemplateFields {
    static let fields = FieldTable<ImageView>([
        "loading": { .init($0.loading) },
        "priority": { .init($0.priority) },
        "later": { .init($0.later) },
        "dotLabel": { .init($0.dotLabel) },
        "src": { .init(rooted: $0.src) },
        "srcset": { .init(rooted: $0.srcset) },
        "sizes": { .init($0.sizes) },
        "sources": { .init($0.sources) },
        "width": { .init($0.width) },
        "height": { .init($0.height) },
        "alt": { .init($0.alt) },
        "color": { .init($0.color) },
        "placeholder": { .init($0.placeholder) },
        "focus": { .init($0.focus) },
        "focusStyle": { .init($0.focusStyle) },
        "backdrop": { .init($0.backdrop) },
        "src1x": { .init(rooted: $0.src1x) },
        "src2x": { .init(rooted: $0.src2x) },
        "index": { .init($0.index) },
        "count": { .init($0.count) },
        "video": { .init($0.video) },
    ])
}

extension VideoView: TemplateFields {
    static let fields = FieldTable<VideoView>([
        "sources": { .init($0.sources) },
        "src": { .init(rooted: $0.src) },
        "poster": { .init(rooted: $0.poster) },
        "width": { .init($0.width) },
        "height": { .init($0.height) },
        "duration": { .init($0.duration) },
        "hasAudio": { .init($0.hasAudio) },
    ])
}

extension VideoSourceView: TemplateFields {
    static let fields = FieldTable<VideoSourceView>([
        "src": { .init(rooted: $0.src) },
        "type": { .init($0.type) },
        "media": { .init($0.media) },
    ])
}
