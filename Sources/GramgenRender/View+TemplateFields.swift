import Mustache

/// Templates look fields up by name. A table per view type answers without reflection
/// (Mirror made up two thirds of render time); these tables are also the list of every field
/// a template can use (docs/templates.md).
protocol TemplateFields: MustacheParent {
    static var fields: [String: (Self) -> Any?] { get }
}

extension TemplateFields {
    func child(named name: String) -> Any? { Self.fields[name].flatMap { $0(self) } }
}

extension UserView: TemplateFields {
    static let fields: [String: (UserView) -> Any?] = [
        "handle": { $0.handle },
        "name": { $0.name },
        "href": { $0.href },
        "avatar": { $0.avatar },
        "initial": { $0.initial },
    ]
}

extension PostView: TemplateFields {
    static let fields: [String: (PostView) -> Any?] = [
        "id": { $0.id },
        "href": { $0.href },
        "author": { $0.author },
        "dateISO": { $0.dateISO },
        "dateText": { $0.dateText },
        "location": { $0.location },
        "captionHTML": { $0.captionHTML },
        "captionText": { $0.captionText },
        "images": { $0.images },
        "aspect": { $0.aspect },
        "isCarousel": { $0.isCarousel },
        "imageCount": { $0.imageCount },
        "tile": { $0.tile },
        "likes": { $0.likes },
        "comments": { $0.comments },
        "commentCount": { $0.commentCount },
        "hasComments": { $0.hasComments },
        "tags": { $0.tags },
        "sensitive": { $0.sensitive },
        "exif": { $0.exif },
    ]
}

extension ExifPhotoView: TemplateFields {
    static let fields: [String: (ExifPhotoView) -> Any?] = [
        "label": { $0.label },
        "items": { $0.items },
    ]
}

extension ExifItemView: TemplateFields {
    static let fields: [String: (ExifItemView) -> Any?] = [
        "label": { $0.label },
        "value": { $0.value },
    ]
}

extension LikesView: TemplateFields {
    static let fields: [String: (LikesView) -> Any?] = [
        "first": { $0.first },
        "othersText": { $0.othersText },
        "users": { $0.users },
        "count": { $0.count },
    ]
}

extension CommentView: TemplateFields {
    static let fields: [String: (CommentView) -> Any?] = [
        "author": { $0.author },
        "html": { $0.html },
        "dateISO": { $0.dateISO },
        "dateText": { $0.dateText },
    ]
}

extension TagLinkView: TemplateFields {
    static let fields: [String: (TagLinkView) -> Any?] = [
        "name": { $0.name },
        "href": { $0.href },
        "count": { $0.count },
    ]
}

extension PaginationView: TemplateFields {
    static let fields: [String: (PaginationView) -> Any?] = [
        "current": { $0.current },
        "total": { $0.total },
        "previousHref": { $0.previousHref },
        "nextHref": { $0.nextHref },
    ]
}

extension FeedLinkView: TemplateFields {
    static let fields: [String: (FeedLinkView) -> Any?] = [
        "href": { $0.href },
        "type": { $0.type },
        "title": { $0.title },
    ]
}

extension ShareImageView: TemplateFields {
    static let fields: [String: (ShareImageView) -> Any?] = [
        "url": { $0.url },
        "width": { $0.width },
        "height": { $0.height },
        "alt": { $0.alt },
    ]
}

extension TabView: TemplateFields {
    static let fields: [String: (TabView) -> Any?] = [
        "label": { $0.label },
        "href": { $0.href },
        "current": { $0.current },
    ]
}

extension ActivityView: TemplateFields {
    static let fields: [String: (ActivityView) -> Any?] = [
        "kind": { $0.kind },
        "actor": { $0.actor },
        "text": { $0.text },
        "post": { $0.post },
        "dateISO": { $0.dateISO },
        "dateText": { $0.dateText },
    ]
}

extension PostRefView: TemplateFields {
    static let fields: [String: (PostRefView) -> Any?] = [
        "href": { $0.href },
        "tile": { $0.tile },
    ]
}

extension MasonryColumnView: TemplateFields {
    static let fields: [String: (MasonryColumnView) -> Any?] = [
        "items": { $0.items },
    ]
}

extension MasonryItemView: TemplateFields {
    static let fields: [String: (MasonryItemView) -> Any?] = [
        "href": { $0.href },
        "image": { $0.image },
        "author": { $0.author },
    ]
}

extension PageView: TemplateFields {
    static let fields: [String: (PageView) -> Any?] = [
        "lang": { $0.lang },
        "siteTitle": { $0.siteTitle },
        "title": { $0.title },
        "description": { $0.description },
        "canonical": { $0.canonical },
        "root": { $0.root },
        "stylesheet": { $0.stylesheet },
        "script": { $0.script },
        "feeds": { $0.feeds },
        "share": { $0.share },
        "navHome": { $0.navHome },
        "navExplore": { $0.navExplore },
        "navTags": { $0.navTags },
        "heading": { $0.heading },
        "posts": { $0.posts },
        "grid": { $0.grid },
        "post": { $0.post },
        "profile": { $0.profile },
        "tabs": { $0.tabs },
        "tags": { $0.tags },
        "columns": { $0.columns },
        "activity": { $0.activity },
        "pagination": { $0.pagination },
        "empty": { $0.empty },
    ]
}

extension ProfileHeaderView: TemplateFields {
    static let fields: [String: (ProfileHeaderView) -> Any?] = [
        "user": { $0.user },
        "bioHTML": { $0.bioHTML },
        "website": { $0.website },
        "websiteLabel": { $0.websiteLabel },
        "location": { $0.location },
        "postCount": { $0.postCount },
        "followerCount": { $0.followerCount },
        "followingCount": { $0.followingCount },
        "feedHref": { $0.feedHref },
    ]
}

extension Section: TemplateFields {
    static var fields: [String: (Section) -> Any?] { ["items": { $0.items }] }
}

extension SourceView: TemplateFields {
    static let fields: [String: (SourceView) -> Any?] = [
        "type": { $0.type },
        "srcset": { $0.srcset },
    ]
}

extension ImageView: TemplateFields {
    static let fields: [String: (ImageView) -> Any?] = [
        "src": { $0.src },
        "srcset": { $0.srcset },
        "sizes": { $0.sizes },
        "sources": { $0.sources },
        "width": { $0.width },
        "height": { $0.height },
        "alt": { $0.alt },
        "color": { $0.color },
        "placeholder": { $0.placeholder },
        "focus": { $0.focus },
        "index": { $0.index },
        "count": { $0.count },
    ]
}
