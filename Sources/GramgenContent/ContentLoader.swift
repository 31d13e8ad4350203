import Foundation
import GramgenCore
import GramgenMarkdown

/// Stages 1–2 of a build: read `content/` and resolve it into a validated `Site`.
public struct ContentLoader: Sendable {
    public struct Options: Sendable {
        public var includeDrafts = false
        /// Overrides `base_url` from site.yml (`--base-url`).
        public var baseURL: String?
        /// How files are read in parallel (`--jobs`).
        public var parallel: Parallel
        /// Posts kept from the last load of the same site (`gramgen serve`), reused when unchanged.
        public var memo: PostMemo?
        /// A walk of `content/` made just before found every name UTF-8 and every folder readable,
        /// so the loader does not walk it again to look (`NameCheck`).
        public var namesChecked: Bool
        public init(includeDrafts: Bool = false, baseURL: String? = nil, parallel: Parallel = Parallel(), memo: PostMemo? = nil,
                    namesChecked: Bool = false) {
            self.includeDrafts = includeDrafts
            self.baseURL = baseURL
            self.parallel = parallel
            self.memo = memo
            self.namesChecked = namesChecked
        }
    }

    public let siteRoot: URL
    public let options: Options

    public init(siteRoot: URL, options: Options = Options()) {
        self.siteRoot = siteRoot
        self.options = options
    }

    /// What a load reads before any post (`start()`): the configuration with its texts and the
    /// user folders, nil without a `content/` folder, and what was found wrong with them.
    public struct Start: Sendable {
        fileprivate var read: (config: SiteConfig, users: [ContentFolder.Subfolder])?
        fileprivate var diagnostics: Diagnostics
    }

    /// The first part of a load, which needs nothing kept from the last one: a build reads it
    /// while the kept posts are read (`load(start:)`), instead of on one thread after them.
    public func start() -> Start {
        var diagnostics = Diagnostics()
        let contentRoot = siteRoot.appendingPathComponent("content")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: contentRoot.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            diagnostics.error(SourceLocation("content"), "there is no content/ folder in \(siteRoot.path)",
                              hint: "run gramgen in the site's folder, pass --site DIR, or create one with `gramgen init`")
            return Start(read: nil, diagnostics: diagnostics)
        }
        if !options.namesChecked { NameCheck.problems(in: contentRoot, diagnostics: &diagnostics) }
        var config = SiteConfigLoader.load(siteRoot: siteRoot, diagnostics: &diagnostics)
        if let file = MessageFileLoader.load(siteRoot: siteRoot, language: config.language, diagnostics: &diagnostics) {
            config.messageOverridesFile = file.path
            config.messageOverrides = file.overrides
        }
        if let override = options.baseURL {
            if let normalized = SiteConfigLoader.normalizedBaseURL(override) {
                config.baseURL = normalized
            } else {
                diagnostics.error(SourceLocation("--base-url"), "'\(override)' is not an http(s) URL",
                                  hint: "pass for example --base-url https://example.com/photos/")
            }
        }
        let users = userFolders(in: contentRoot, diagnostics: &diagnostics)
        return Start(read: (config, users), diagnostics: diagnostics)
    }

    /// The site, or nil when it has errors; every problem found is in `diagnostics`. `start`:
    /// the load's first part, when it was read already.
    public func load(diagnostics: inout Diagnostics, start: Start? = nil) -> Site? {
        let start = start ?? self.start()
        diagnostics.append(contentsOf: start.diagnostics.items)
        guard let (config, users) = start.read else { return nil }
        let contentRoot = siteRoot.appendingPathComponent("content")
        let handles = users.map(\.name)
        let known = Set(handles)
        let markdown = MarkdownRenderer(isKnownHandle: { known.contains($0) })

        // Users, then posts, are read in parallel; each item collects its own diagnostics, which are
        // appended below in the order a one-at-a-time load reports them: a user's profile, then
        // each of their posts, user by user.
        let profileLoader = ProfileLoader(contentRoot: contentRoot, markdown: markdown)
        let postLoader = PostLoader(contentRoot: contentRoot, config: config, markdown: markdown)
        let contentPath = contentRoot.path
        let usersFolderIsPlain = ContentFolder.entry(atPath: contentPath + "/users") == .folder
        let memo = options.memo
        memo?.begin(.init(contentPath: contentPath, config: config, handles: known),
                    key: Self.memoKey(contentPath: contentPath, config: config, handles: handles))
        let kept = memo?.kept()
        let userResults = users.parallelMap(options.parallel) { user -> UserResult in
            var diagnostics = Diagnostics()
            // A profile whose user folder is exactly as the last load found it, reached without
            // links, is taken as it was read (with what it reported); any other is read.
            let userFolder = "users/\(user.name)"
            let stamp = usersFolderIsPlain && user.isPlain ? kept?.stamp(of: userFolder) : nil
            let taken = stamp.flatMap { kept?.profile(userFolder, stamp: $0) }
            let (profile, following): (Profile, [Reference])
            if let taken {
                (profile, following) = (taken.profile, taken.following)
                diagnostics.append(contentsOf: taken.diagnostics)
            } else {
                (profile, following) = profileLoader.load(handle: user.name, diagnostics: &diagnostics)
            }
            memo?.used(profile: taken ?? stamp.map { PostMemo.ProfileEntry(stamp: $0, profile: profile, following: following, diagnostics: diagnostics.items) },
                       of: userFolder, taken: taken != nil)
            let postsPath = contentPath + "/users/\(user.name)/posts"
            let postsFolderIsPlain = usersFolderIsPlain && user.isPlain && ContentFolder.entry(atPath: postsPath) == .folder
            // Joined once a user: interpolated whole for each post, the folder's path took 550
            // instructions of each of 10,000 kept posts.
            let postsFolder = userFolder + "/posts/"
            let posts = ContentFolder.subfolders(of: postsPath).compactMap { folder -> PostJob? in
                let relative = postsFolder + folder.name
                if !postsFolderIsPlain || !folder.isPlain, let link = FileContainment.linkOutside(relative, root: contentRoot) {
                    diagnostics.error(SourceLocation("content/" + link), "this is a link to a folder outside content/",
                                      hint: "move the folder into content/ instead of linking to it")
                    return nil
                }
                return PostJob(handle: user.name, id: folder.name, folder: relative, folderIsPlain: postsFolderIsPlain && folder.isPlain)
            }
            return UserResult(profile: profile, following: following, diagnostics: diagnostics.items, posts: posts)
        }
        let postResults = userResults.flatMap(\.posts).parallelMap(options.parallel) { job -> (LoadedPost?, [Diagnostic], kept: String?) in
            let folder = job.folder
            let stamp = !job.folderIsPlain ? nil : kept?.stamp(of: folder)
            if let stamp, let entry = kept?.lookup(folder, stamp: stamp) { return (entry.loaded, entry.diagnostics, folder) }
            var diagnostics = Diagnostics()
            let loaded = postLoader.load(handle: job.handle, id: job.id, folderIsPlain: job.folderIsPlain,
                                         diagnostics: &diagnostics)
            if let stamp { memo?.remember(folder, .init(stamp: stamp, loaded: loaded, diagnostics: diagnostics.items)) }
            return (loaded, diagnostics.items, nil)
        }
        // The memo's record of the posts taken, beside the gathering (both are a pass over every
        // post, on one thread each while nothing else runs).
        let (_, gathered) = options.parallel.both({
            memo?.took(postResults.compactMap(\.kept))
            memo?.finish()
        }, {
            var gathered = Gathered()
            var nextPost = postResults.startIndex
            for user in userResults {
                gathered.diagnostics += user.diagnostics
                gathered.profiles.append(user.profile)
                gathered.references += user.following
                for (loaded, postDiagnostics, _) in postResults[nextPost..<(nextPost + user.posts.count)] {
                    gathered.diagnostics += postDiagnostics
                    guard let loaded else { continue }
                    if loaded.post.repostOf != nil { gathered.hasReposts = true }
                    if loaded.post.isDraft && !options.includeDrafts { continue }
                    gathered.posts.append(loaded)
                    gathered.references += loaded.references
                }
                nextPost += user.posts.count
            }
            return gathered
        })
        diagnostics.append(contentsOf: gathered.diagnostics)
        SiteResolver.check(gathered.references, users: known, diagnostics: &diagnostics)
        if gathered.hasReposts {
            // Every post read, drafts included: what a repost may name (made only when a post reposts).
            let everyPost = Dictionary(postResults.compactMap { $0.0.map { ($0.post.key, $0.post) } }, uniquingKeysWith: { _, last in last })
            SiteResolver.checkReposts(gathered.posts, every: everyPost, diagnostics: &diagnostics)
        }
        if diagnostics.hasErrors { return nil }
        return SiteResolver.resolve(config: config, profiles: gathered.profiles, posts: gathered.posts, parallel: options.parallel)
    }

    /// `PostMemo.Context` as a digest that outlives the process, for a memo kept on disk: the
    /// configuration as its fields print (every field, by construction; a dictionary's order may
    /// differ between processes, which only costs a load that reuses nothing), the handles, the
    /// folder.
    static func memoKey(contentPath: String, config: SiteConfig, handles: [String]) -> UInt64 {
        var digest = DigestBuilder()
        digest.add(contentPath)
        digest.add(String(reflecting: config))
        digest.add(UInt64(handles.count))
        for handle in handles.sorted() { digest.add(handle) }
        return digest.value
    }

    /// Valid user folders, sorted; invalid names and case clashes are reported.
    private func userFolders(in contentRoot: URL, diagnostics: inout Diagnostics) -> [ContentFolder.Subfolder] {
        let folders = ContentFolder.subfolders(of: contentRoot.appendingPathComponent("users").path)
        var users: [ContentFolder.Subfolder] = []
        var seen: [String: String] = [:]
        for folder in folders {
            let name = folder.name
            let path = "content/users/\(name)"
            if !folder.isPlain, let link = FileContainment.linkOutside("users/\(name)", root: contentRoot) {
                diagnostics.error(SourceLocation("content/" + link), "this is a link to a folder outside content/",
                                  hint: "move the folder into content/ instead of linking to it")
                continue
            }
            if let other = seen[name.lowercased()] {
                diagnostics.error(SourceLocation(path), "the user folder '\(name)' differs from '\(other)' only in case",
                                  hint: "handles are unique regardless of case; merge or rename one of them")
                continue
            }
            seen[name.lowercased()] = name
            if let problem = Handle.problem(with: name) {
                diagnostics.error(SourceLocation(path), "'\(name)' is not a valid handle: \(problem)",
                                  hint: "rename the folder, e.g. to '\(Self.suggestedHandle(for: name))'")
                continue
            }
            users.append(folder)
        }
        if users.isEmpty && folders.isEmpty {
            diagnostics.warning(SourceLocation("content/users"), "the site has no users",
                                hint: "add one with `gramgen new user HANDLE`")
        }
        return users
    }

    private struct PostJob {
        var handle: String
        var id: String
        /// `users/<handle>/posts/<id>`, made once (the load and the memo both look it up).
        var folder: String
        /// `folder` is reached from content/ without links (see `ContentFolder`).
        var folderIsPlain: Bool
    }

    private struct UserResult {
        var profile: Profile
        var following: [Reference]
        var diagnostics: [Diagnostic]
        var posts: [PostJob]
    }

    /// Every user's and post's results in the order a one-at-a-time load reports them.
    private struct Gathered {
        var profiles: [Profile] = []
        var references: [Reference] = []
        /// Published posts (drafts too with `includeDrafts`).
        var posts: [LoadedPost] = []
        var diagnostics: [Diagnostic] = []
        /// Whether any post read, drafts included, reposts another.
        var hasReposts = false
    }

    static func suggestedHandle(for name: String) -> String {
        let folded = name.folding(options: [.diacriticInsensitive, .widthInsensitive], locale: nil)
        let lowered = folded.lowercased().map { c -> Character in
            c.unicodeScalars.allSatisfy(Handle.isHandleCharacter) ? c : "_"
        }
        var text = String(lowered).trimmingCharacters(in: CharacterSet(charactersIn: "."))
        while text.contains("..") { text = text.replacingOccurrences(of: "..", with: ".") }
        if Handle.reserved.contains(text) { text += "_" }
        return String(text.prefix(30)).isEmpty ? "user" : String(text.prefix(30))
    }
}
