import Foundation
import GramgenCore
import GramgenMarkdown
import Yams

/// Reads `users/<handle>/posts/<id>/post.md` and the post's images.
struct PostLoader {
    static let keys = ["date", "location", "images", "liked_by", "comments", "draft", "sensitive", "tags", "show_exif", "repost"]

    let contentRoot: URL
    let config: SiteConfig
    let markdown: MarkdownRenderer
    /// `contentRoot.path`.
    private let contentPath: String

    init(contentRoot: URL, config: SiteConfig, markdown: MarkdownRenderer) {
        self.contentRoot = contentRoot
        self.config = config
        self.markdown = markdown
        contentPath = contentRoot.path
    }

    /// - Parameter folderIsPlain: the post's folder is reached from content/ without links
    ///   (see `ContentFolder`), so a file in it that is no link itself is inside content/.
    func load(handle: String, id: String, folderIsPlain: Bool = false, diagnostics: inout Diagnostics) -> LoadedPost? {
        let folderPath = "content/users/\(handle)/posts/\(id)"
        let path = folderPath + "/post.md"
        if let problem = PostID.problem(with: id) {
            diagnostics.error(SourceLocation(folderPath), "the post folder name is not usable in a URL: \(problem)",
                              hint: "rename the folder using letters a–z, digits, '-' and '_', e.g. 2024-05-25-han-river")
            return nil
        }
        let folder = PostFolder(contentRoot: contentRoot, contentPath: contentPath,
                                relativePath: "users/\(handle)/posts/\(id)", isPlain: folderIsPlain)
        let text: String?
        if folder.isPlainFile("post.md") {
            text = TextFile.read(insideFileAtPath: folder.path + "/post.md", path: path, diagnostics: &diagnostics)
        } else {
            text = TextFile.read(folder.url.appendingPathComponent("post.md"), path: path, required: true,
                                 within: contentRoot, diagnostics: &diagnostics)
        }
        guard let text, let matter = FrontMatter.parse(text, path: path, diagnostics: &diagnostics) else { return nil }
        let fields = matter.fields
        let errorsBefore = diagnostics.errorCount
        fields.warnUnknownKeys(known: Self.keys, diagnostics: &diagnostics)

        let date = readDate(fields, id: id, path: path, diagnostics: &diagnostics)
        let repost = readRepost(fields, diagnostics: &diagnostics)
        var images: [ImageSource] = []
        if let repostNode = fields.node("repost") {
            // A repost shows the original's media; its own would be a second, hidden set.
            if fields.node("images") != nil || !folder.imageFiles().isEmpty {
                diagnostics.warning(fields.location(of: repostNode), "a repost shows the original post's photos and videos; this post's own are not used",
                                    hint: "remove them (and `images:`), or remove `repost:` to make it a post of its own")
            }
        } else {
            images = readImages(fields, folder: folder, folderPath: folderPath, path: path, diagnostics: &diagnostics)
        }
        let captions = CaptionRenderer(markdown: markdown)
        let caption = captions.render(matter.body, path: path, firstLine: matter.bodyFirstLine, diagnostics: &diagnostics)
        let comments = readComments(fields, path: path, captions: captions, diagnostics: &diagnostics)
        var tags = caption.tags + comments.flatMap(\.comment.text.tags)
        for (tag, location) in fields.stringList("tags", diagnostics: &diagnostics) ?? [] {
            let name = tag.hasPrefix("#") ? String(tag.dropFirst()) : tag
            if !HashtagRule.isValid(name) {
                diagnostics.error(location, "'\(tag)' is not a hashtag",
                                  hint: "use letters, digits and '_' with at least one letter, e.g. `tags: [travel, summer_2024]`")
            } else {
                tags.append(name)
            }
        }
        var tagKeys: [String] = []
        var seenKeys = Set<String>()
        for tag in tags {
            let key = TagKey.key(for: tag)
            if seenKeys.insert(key).inserted { tagKeys.append(key) }
        }
        if tagKeys.count > config.maxHashtagsPerPost {
            diagnostics.error(SourceLocation(path, line: 1),
                              "the post has \(tagKeys.count) different hashtags; at most \(config.maxHashtagsPerPost) are allowed",
                              hint: "remove some (each one makes a page and a feed holding the post), or raise `max_hashtags_per_post` in site.yml")
        }
        let likes = References.handles("liked_by", in: fields, diagnostics: &diagnostics)
        let location = fields.string("location", diagnostics: &diagnostics)
        let isDraft = fields.bool("draft", diagnostics: &diagnostics) ?? false
        let isSensitive = fields.bool("sensitive", diagnostics: &diagnostics) ?? false
        let showExif = fields.bool("show_exif", diagnostics: &diagnostics)
        guard diagnostics.errorCount == errorsBefore, let date else { return nil }
        let post = Post(
            id: id, author: handle, date: date, location: location, images: images, caption: caption,
            tagKeys: tagKeys, likedBy: likes.map(\.handle), comments: comments.map(\.comment),
            isDraft: isDraft, isSensitive: isSensitive, showExif: showExif, repostOf: repost?.key, sourcePath: path,
            sourceDigest: { var digest = DigestBuilder(); digest.add(text); return digest.value }())
        return LoadedPost(post: post, tagSpellings: tags,
                          references: likes + comments.map { Reference(handle: $0.comment.author, location: $0.location, role: "comment author") },
                          repostLocation: repost?.location)
    }

    /// `repost: handle/post-id`: the key of the post reposted, checked for its shape here and
    /// against the site's posts once all are read (`SiteResolver.checkReposts`).
    private func readRepost(_ fields: FrontMatterFields, diagnostics: inout Diagnostics) -> (key: String, location: SourceLocation)? {
        guard let node = fields.node("repost") else { return nil }
        let location = fields.location(of: node)
        guard let text = fields.string("repost", diagnostics: &diagnostics) else { return nil }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, Handle.isValid(parts[0]), PostID.problem(with: parts[1]) == nil else {
            diagnostics.error(location, "'\(text)' is not a post to repost",
                              hint: "write the author's handle and the post's folder name: `repost: ann/2024-05-20-picnic`")
            return nil
        }
        return (text, location)
    }

    private func readDate(_ fields: FrontMatterFields, id: String, path: String,
                          diagnostics: inout Diagnostics) -> PostDate? {
        if let node = fields.node("date") {
            if let text = node.scalar?.string, let date = DateParser.parse(text) { return date }
            diagnostics.error(fields.location(of: node),
                              node.scalar.map { "'\($0.string)' is not a date" } ?? "'date' must be one date, not a list or mapping",
                              hint: "write `date: 2024-05-25T14:30:00+09:00` or `date: 2024-05-25`")
            return nil
        }
        if let date = DateParser.folderDate(id) { return date }
        diagnostics.error(SourceLocation(path, line: 1), "the post has no date",
                          hint: "add `date: 2024-05-25T14:30:00+09:00` to the front matter, or start the folder name with the date (2024-05-25-…)")
        return nil
    }
}
