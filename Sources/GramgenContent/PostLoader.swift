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
            isDraft: isDraft, isSensitive: isSensitive, showExif: showExif, repostOf: repost?.key, sourcePath: path)
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

    private func readImages(_ fields: FrontMatterFields, folder: PostFolder, folderPath: String, path: String,
                            diagnostics: inout Diagnostics) -> [ImageSource] {
        let errorsBefore = diagnostics.errorCount
        var images: [ImageSource] = []
        if let node = fields.node("images") {
            guard let sequence = node.sequence else {
                diagnostics.error(fields.location(of: node), "'images' must be a list",
                                  hint: "write one `- file: 1.jpg` line per image, with `alt:` below it")
                return []
            }
            for item in sequence {
                var file: String?
                var alt = ""
                let location = fields.location(of: item)
                if case .scalar(let scalar) = item {
                    file = scalar.string
                } else if let mapping = item.mapping {
                    let itemFields = fields.nested(mapping)
                    itemFields.warnUnknownKeys(known: ["file", "alt"], diagnostics: &diagnostics)
                    file = itemFields.string("file", diagnostics: &diagnostics)
                    alt = itemFields.string("alt", diagnostics: &diagnostics) ?? ""
                    if file == nil {
                        diagnostics.error(location, "an image has no `file:`", hint: "add `file: 1.jpg`")
                        continue
                    }
                } else {
                    diagnostics.error(location, "each image must be a file name or `file:` and `alt:`",
                                      hint: "write `- file: 1.jpg` and `alt: what the photo shows`")
                    continue
                }
                guard let name = file else { continue }
                if let problem = References.fileNameProblem(name) {
                    diagnostics.error(location, problem, hint: "name a file in the post's folder")
                    continue
                }
                guard ImageFiles.isMedia(name) else {
                    diagnostics.error(location, "'\(name)' is not a supported photo or video type",
                                      hint: "use photos (\(MediaType.photoTypesText)) or videos (\(MediaType.videoTypesText))")
                    continue
                }
                let (url, problem) = folder.image(name)
                if let problem {
                    diagnostics.error(location, "'\(name)': \(problem.message)", hint: problem.hint)
                    continue
                }
                images.append(ImageSource(path: "\(folderPath)/\(name)", fileURL: url, alt: alt))
            }
        } else {
            for (name, isPlainFile) in folder.imageFiles() {
                let (url, problem) = folder.image(name, isPlainFile: isPlainFile)
                if let problem {
                    diagnostics.error(SourceLocation("\(folderPath)/\(name)"), problem.message, hint: problem.hint)
                    continue
                }
                images.append(ImageSource(path: "\(folderPath)/\(name)", fileURL: url, alt: ""))
            }
            if images.isEmpty && diagnostics.errorCount == errorsBefore {
                diagnostics.error(SourceLocation(path), "the post has no images",
                                  hint: "put at least one photo (.jpg, .png, .heic …) or video (.mp4, .mov …) in \(folderPath)/")
            }
        }
        let limit = config.maxImagesPerPost
        if images.count > limit {
            diagnostics.error(fields.location(of: fields.node("images")),
                              "the post has \(images.count) images; at most \(limit) are allowed",
                              hint: "remove some, or raise `max_images_per_post` in site.yml")
        }
        if images.isEmpty, fields.node("images") != nil, diagnostics.errorCount == errorsBefore {
            diagnostics.error(fields.location(of: fields.node("images")), "the post has no images",
                              hint: "list at least one image under `images:`")
        }
        return images
    }

    private func readComments(_ fields: FrontMatterFields, path: String, captions: CaptionRenderer,
                              diagnostics: inout Diagnostics) -> [(comment: Comment, location: SourceLocation)] {
        guard let node = fields.node("comments") else { return [] }
        guard let sequence = node.sequence else {
            diagnostics.error(fields.location(of: node), "'comments' must be a list",
                              hint: "write `- author: alfred` with `date:` and `text:` below it")
            return []
        }
        var comments: [(comment: Comment, location: SourceLocation)] = []
        for item in sequence {
            guard let mapping = item.mapping else {
                diagnostics.error(fields.location(of: item), "each comment needs `author:`, `date:` and `text:`",
                                  hint: "write `- author: alfred` with `date:` and `text:` below it")
                continue
            }
            let c = fields.nested(mapping)
            c.warnUnknownKeys(known: ["author", "date", "text"], diagnostics: &diagnostics)
            let author = c.string("author", diagnostics: &diagnostics) ?? ""
            let text = c.string("text", diagnostics: &diagnostics) ?? ""
            var date: PostDate?
            if let dateNode = c.node("date") {
                date = dateNode.scalar.flatMap { DateParser.parse($0.string) }
                if date == nil {
                    diagnostics.error(c.location(of: dateNode), "'\(dateNode.scalar?.string ?? "")' is not a date",
                                      hint: "write `date: 2024-05-26T09:00:00Z`")
                }
            } else {
                diagnostics.error(fields.location(of: item), "the comment has no `date:`", hint: "add `date: 2024-05-26T09:00:00Z`")
            }
            if author.isEmpty {
                diagnostics.error(fields.location(of: item), "the comment has no `author:`", hint: "add `author: <handle>`")
            }
            let (textLine, textColumn) = Self.textStart(c.node("text"), fields: c)
            let rendered = captions.render(text, path: path, firstLine: textLine, firstColumn: textColumn,
                                           diagnostics: &diagnostics)
            if let date, !author.isEmpty {
                let author = author.hasPrefix("@") ? String(author.dropFirst()) : author
                comments.append((Comment(author: author, date: date.instant, text: rendered), c.location(of: c.node("author"))))
            }
        }
        return comments
    }
}

/// A post's folder: its URL is only built when needed, as building one asks the disk whether it
/// names a folder; when the folder is reached without links, one `readdir` tells which of its
/// entries are regular files, and so inside content/ (see `ContentFolder`).
private struct PostFolder {
    let contentRoot: URL
    /// `users/<handle>/posts/<id>`.
    let relativePath: String
    /// `url.path`.
    let path: String
    /// The folder is reached from content/ without links.
    let isPlain: Bool
    /// The folder's entries, when it is plain and could be read.
    private let listing: [ContentFolder.Listed]?

    init(contentRoot: URL, contentPath: String, relativePath: String, isPlain: Bool) {
        self.contentRoot = contentRoot
        self.relativePath = relativePath
        path = contentPath + "/" + relativePath
        self.isPlain = isPlain
        listing = isPlain ? ContentFolder.listing(ofFolderAtPath: path) : nil
    }

    var url: URL { contentRoot.appendingPathComponent(relativePath) }

    /// Whether the folder is plain and `name` in it is a regular file, not a link.
    func isPlainFile(_ name: String) -> Bool {
        guard isPlain else { return false }
        guard let listing else { return ContentFolder.entry(atPath: path + "/" + name) == .file }
        // Names on disk are bytes: compare bytes, not canonically equivalent strings.
        return listing.contains { $0.entry == .file && $0.name.utf8.elementsEqual(name.utf8) }
    }

    /// `ImageFiles.list(in: url)`, each name with whether it is known to be a regular file.
    func imageFiles() -> [(name: String, isPlainFile: Bool)] {
        guard let listing else { return ImageFiles.list(inFolderAtPath: path, videos: true).map { ($0, false) } }
        return listing.filter { !$0.name.hasPrefix(".") && ImageFiles.isMedia($0.name) }
            .sorted { NaturalOrder.less($0.name, $1.name) }
            .map { ($0.name, $0.entry == .file) }
    }

    /// The URL of the image file `name` in the folder, and what makes it unusable, if anything.
    /// - Parameter isPlainFile: `isPlainFile(name)` is known to be true.
    func image(_ name: String, isPlainFile known: Bool = false) -> (url: URL, problem: (message: String, hint: String)?) {
        if known || (ContentFolder.isPlainName(name) && isPlainFile(name)) {
            // A regular file, no link, in a folder reached without links: it exists, is inside
            // content/ and is not a folder, so this is the URL `url.appendingPathComponent(name)` builds.
            let url = contentRoot.appendingPathComponent(relativePath + "/" + name, isDirectory: false)
            return (url, ImageFiles.fileProblem(atPath: url.path))
        }
        let url = url.appendingPathComponent(name)
        return (url, ImageFiles.problem(with: url, contentRoot: contentRoot))
    }
}

extension PostLoader {
    /// Where a comment's text begins in the file: after the opening quote of a quoted value, on
    /// the line after `|` or `>` of a block value (column unknown there, so 1).
    static func textStart(_ node: Node?, fields: FrontMatterFields) -> (line: Int, column: Int) {
        let location = fields.location(of: node)
        let line = location.line ?? 1, column = location.column ?? 1
        switch node?.scalar?.style {
        case .singleQuoted?, .doubleQuoted?: return (line, column + 1)
        case .literal?, .folded?: return (line + 1, 1)
        default: return (line, column)
        }
    }
}

/// Post folder names become URLs, so they are restricted to characters that need no escaping.
enum PostID {
    static let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.".unicodeScalars)

    static func problem(with id: String) -> String? {
        if id.isEmpty || id.count > 100 { return "it must be 1 to 100 characters long" }
        if id.hasPrefix(".") { return "it may not start with '.'" }
        if let bad = id.unicodeScalars.first(where: { !allowed.contains($0) }) {
            return "it contains '\(bad.escaped(asASCII: false))'"
        }
        return nil
    }
}
