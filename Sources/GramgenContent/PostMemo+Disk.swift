import Foundation
import GramgenCore

/// `PostMemo` kept on disk, so a one-off `gramgen build` after an edit reads and parses only the
/// posts whose folders changed (a caption edit on a 10,000-post site: one post instead of
/// 10,000). The posts are spread over `shardCount` files by their folder's name, and a build
/// rewrites only the files holding a post it read anew or no longer has, so no file grows with
/// more than its share of the site and an edit writes one of them.
///
/// A file holds the posts as the loader made them, each with its folder's stamp (see
/// `PostMemo`), under the executable and cache folder that made them (`salt`, see
/// `BuildState.keptSalt`) and the context's digest
/// (`ContentLoader.memoKey`): another gramgen, another site.yml or set of handles, and none of it
/// is used. Only posts loaded without a diagnostic are kept (one with a warning is read again,
/// and warns again), and only those whose files are plain files inside content/ (their URLs are
/// made again from their paths). A file cut short or damaged is ignored: its posts are read again.
///
/// The users' profiles are kept the same way, all in one file (`profiles`) beside the shards:
/// each as the loader made it from its user folder, by the folder's stamp.
extension PostMemo {
    public static let shardCount = 64
    private static let magic = "gramgen posts 1"
    private static let profilesMagic = "gramgen profiles 1"
    static let profilesName = "profiles"
    /// A shard holds a 64th of the posts: 1.5 MB at 100,000 posts. One larger than this was not
    /// written by gramgen and is not read (64 of them: at most 1 GiB read).
    static let maxShardBytes = 16 * 1024 * 1024

    static func shard(_ folder: String) -> Int {
        var digest = DigestBuilder()
        digest.add(folder)
        return Int(digest.value % UInt64(shardCount))
    }

    private static func shardPath(_ folder: URL, _ shard: Int) -> String {
        folder.appendingPathComponent(Hex.string(UInt64(shard), digits: 2)).path
    }

    /// Reads what `save` wrote into `folder`, for the next load to use: only in a memo that has not
    /// loaded anything yet. `contentRoot` as the loader names it (its posts' image URLs are made
    /// from it).
    public func restore(from folder: URL, salt: String, contentRoot: URL, parallel: Parallel) {
        guard lock.withLock({ context == nil && entries.isEmpty && !restored }) else { return }  // a process's later loads
        let shards = parallel.map(count: Self.shardCount) { shard -> (key: UInt64, entries: [(String, Entry)])? in
            guard var reader = KeptFile.reader(atPath: Self.shardPath(folder, shard), limit: Self.maxShardBytes,
                                               magic: Self.magic, salt: salt) else { return nil }
            return try? Self.decode(&reader, contentRoot: contentRoot)
        }
        let keptProfiles = KeptFile.reader(atPath: folder.appendingPathComponent(Self.profilesName).path, limit: Self.maxShardBytes,
                                           magic: Self.profilesMagic, salt: salt)
            .flatMap { reader in var reader = reader; return try? Self.decodeProfiles(&reader, contentRoot: contentRoot) }
        // The context of most posts (a file with none says little: a small site leaves most empty).
        var votes: [UInt64: Int] = [:]
        for case let decoded? in shards { votes[decoded.key, default: 0] += max(1, decoded.entries.count * 1000) }
        lock.withLock {
            guard context == nil, entries.isEmpty, let key = votes.max(by: { $0.value < $1.value })?.key else { return }
            // Grown a step at a time, the table of 10,000 posts was rehashed a dozen times.
            entries.reserveCapacity(shards.reduce(0) { $0 + ($1?.entries.count ?? 0) })
            for (shard, decoded) in shards.enumerated() {
                guard let decoded, decoded.key == key else {
                    changedShards.insert(shard)  // written again by the next save
                    continue
                }
                for (folder, entry) in decoded.entries { entries[folder] = entry }
            }
            if let keptProfiles, keptProfiles.key == key {
                profiles = Dictionary(keptProfiles.entries, uniquingKeysWith: { first, _ in first })
            } else {
                profilesChanged = true
            }
            contextKey = key
            restored = true
        }
    }

    /// Writes the shards that changed since they were read or last written into `folder`.
    public func save(to folder: URL, salt: String, contentRoot: URL) {
        // Taken as changes are: a load that changes a shard while this writes marks it again.
        let (key, changed, all, profilesToWrite): (UInt64?, Set<Int>, [String: Entry], [String: ProfileEntry]?) = lock.withLock {
            defer { if contextKey != nil { changedShards = []; profilesChanged = false } }
            return (contextKey, changedShards, entries, profilesChanged ? profiles : nil)
        }
        guard let key else { return }
        if let profilesToWrite {
            let writer = Self.encodeProfiles(profilesToWrite, salt: salt, key: key, contentRoot: contentRoot)
            if !KeptFile.write(writer, toPath: folder.appendingPathComponent(Self.profilesName).path) {
                lock.withLock { profilesChanged = true }
            }
        }
        guard !changed.isEmpty else { return }
        var byShard: [Int: [(String, Entry)]] = [:]
        for (folder, entry) in all {
            let shard = Self.shard(folder)
            if changed.contains(shard) { byShard[shard, default: []].append((folder, entry)) }
        }
        var failed: Set<Int> = []
        for shard in changed {
            let writer = Self.encode(byShard[shard] ?? [], salt: salt, key: key, contentRoot: contentRoot)
            if !KeptFile.write(writer, toPath: Self.shardPath(folder, shard)) { failed.insert(shard) }
        }
        lock.withLock { changedShards.formUnion(failed) }
    }

    // MARK: The file

    private static func encode(_ entries: [(String, Entry)], salt: String, key: UInt64, contentRoot: URL) -> ByteWriter {
        var writer = KeptFile.writer(magic: magic, salt: salt)
        let root = contentRoot.path
        writer.word(key)
        let kept = entries.filter { folder, entry in
            guard let loaded = entry.loaded, entry.diagnostics.isEmpty else { return false }
            return loaded.post.images.allSatisfy { isRemade($0, root: root) }
        }
        writer.int(kept.count)
        for (folder, entry) in kept {
            writer.string(folder)
            writer.list(entry.stamp) { $0.int($1) }
            if let loaded = entry.loaded { write(loaded, to: &writer) }
        }
        return writer
    }

    private static func decode(_ reader: inout ByteReader, contentRoot: URL) throws -> (key: UInt64, entries: [(String, Entry)]) {
        let key = try reader.word()
        let root = contentRoot.path
        let entries = try reader.list { reader -> (String, Entry) in
            let folder = try reader.string()
            let stamp: [Int64] = try reader.list { try $0.int() }
            let loaded = try read(from: &reader, root: root)
            // What a load of that folder makes, and nothing else: the post and its files are the
            // folder's own (a file that says otherwise was not written by gramgen).
            guard Self.isPlausible(loaded, folder: folder) else { throw ByteReader.Malformed() }
            return (folder, Entry(stamp: stamp, loaded: loaded, diagnostics: []))
        }
        guard reader.isAtEnd else { throw ByteReader.Malformed() }
        return (key, entries)
    }

    /// What a load of `folder` can make, and nothing else: its own post and files, tag keys that
    /// are folder names (each names a folder of the output), handles that are handles, dates that
    /// are dates (the text it holds is escaped where it is shown). A file that says otherwise was not written by gramgen, and is not used.
    /// (The caption's HTML cannot be checked short of rendering it again; the salt keeps files
    /// from elsewhere out, and whoever can write this folder can write the site's templates.)
    static func isPlausible(_ loaded: LoadedPost, folder: String) -> Bool {
        let post = loaded.post
        func isDate(_ date: Date) -> Bool {
            date.timeIntervalSinceReferenceDate.isFinite && abs(date.timeIntervalSinceReferenceDate) < 1e11
        }
        // Each list looked at where it is (no list of every handle or date made for each of 10,000
        // posts), and each path against its parts in place (no text made for each post).
        return isJoined(folder, "users/", post.author, "/posts/", post.id)
            && isJoined(post.sourcePath, "content/", folder, "/post.md")
            && PostID.problem(with: post.id) == nil
            && post.images.allSatisfy { isPlainFile($0.path, in: folder) }
            && post.tagKeys.allSatisfy(ContentFolder.isPlainName)  // each names a folder of the output
            && post.likedBy.allSatisfy(Handle.isValid) && loaded.references.allSatisfy { Handle.isValid($0.handle) }
            && post.caption.mentions.allSatisfy(Handle.isValid)
            && post.comments.allSatisfy { Handle.isValid($0.author) && $0.text.mentions.allSatisfy(Handle.isValid) && isDate($0.date) }
            && post.repostOf.map { $0.split(separator: "/").count == 2 } ?? true
            && isDate(post.date.instant) && abs(post.date.utcOffsetSeconds) <= 18 * 3600
    }

    /// `path` is `content/<folder>/` followed by a plain name (`ContentFolder.isPlainName`), byte for byte.
    private static func isPlainFile(_ path: String, in folder: String) -> Bool {
        startsWith(path, ["content/", folder, "/"]) { ContentFolder.isPlainName($0) }
    }

    /// `text` is `parts` one after the other, byte for byte.
    static func isJoined(_ text: String, _ parts: String...) -> Bool {
        startsWith(text, parts) { $0.isEmpty }
    }

    /// `text` starts with `parts` one after the other, and `rest` holds for the bytes after them.
    /// Compared as byte runs (memcmp), not a byte at a time through `String.UTF8View`: 30,000
    /// paths of 10,000 kept posts are looked at so on every build, and that way took 2% of a
    /// caption edit's CPU.
    private static func startsWith(_ text: String, _ parts: [String], rest: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var at = 0
            for var part in parts {
                let matches = part.withUTF8 { part in
                    part.count <= bytes.count - at
                        && (part.isEmpty || memcmp(bytes.baseAddress! + at, part.baseAddress!, part.count) == 0)
                }
                guard matches else { return false }
                at += part.utf8.count
            }
            return rest(UnsafeBufferPointer(rebasing: bytes[at...]))
        }
    }

    /// The file path the loader gives a plain file at `path` (`PostFolder.image`), under `root`
    /// (content/'s own path).
    /// Made from the bytes in place, in one string of the right size: joined as texts (a prefix
    /// looked for by characters, the rest a `Substring`, two appends), each kept image's took
    /// 2,800 instructions, 1.4% of a caption edit's build at 10,000 posts.
    static func imageFilePath(_ path: String, root: String) -> String? {
        var (path, root) = (path, root)
        return path.withUTF8 { path -> String? in
            let prefix: StaticString = "content/"
            guard path.count >= prefix.utf8CodeUnitCount,
                  UnsafeBufferPointer(rebasing: path[..<prefix.utf8CodeUnitCount]).hasSameBytes(as: prefix) else { return nil }
            let rest = UnsafeBufferPointer(rebasing: path[prefix.utf8CodeUnitCount...])
            return root.withUTF8 { root in
                String(unsafeUninitializedCapacity: root.count + 1 + rest.count) { buffer in
                    var at = buffer.initialize(fromContentsOf: root)
                    buffer[at] = UInt8(ascii: "/")
                    at += 1
                    return at + UnsafeMutableBufferPointer(rebasing: buffer[at...]).initialize(fromContentsOf: rest)
                }
            }
        }
    }

    private static func encodeProfiles(_ profiles: [String: ProfileEntry], salt: String, key: UInt64, contentRoot: URL) -> ByteWriter {
        var writer = KeptFile.writer(magic: profilesMagic, salt: salt)
        let root = contentRoot.path
        writer.word(key)
        // Only those read without a diagnostic, whose avatar is where the loader puts it.
        let kept = profiles.filter { _, entry in
            entry.diagnostics.isEmpty && entry.profile.avatar.map { isRemade($0, root: root) } ?? true
        }.sorted { $0.key < $1.key }
        writer.list(kept) { writer, item in
            let (folder, entry) = item, profile = entry.profile
            writer.string(folder)
            writer.list(entry.stamp) { $0.int($1) }
            writer.string(profile.handle)
            writer.string(profile.name)
            write(profile.bio, to: &writer)
            writer.optional(profile.website) { $0.string($1) }
            writer.optional(profile.location) { $0.string($1) }
            writer.strings(profile.following)
            writer.optional(profile.avatar) { write($1, to: &$0) }
            writer.string(profile.sourcePath)
            write(entry.following, to: &writer)
        }
        return writer
    }

    private static func decodeProfiles(_ reader: inout ByteReader, contentRoot: URL) throws -> (key: UInt64, entries: [(String, ProfileEntry)]) {
        let key = try reader.word()
        let root = contentRoot.path
        let entries = try reader.list { reader -> (String, ProfileEntry) in
            let folder = try reader.string()
            let stamp: [Int64] = try reader.list { try $0.int() }
            let handle = try reader.string(), name = try reader.string(), bio = try readText(from: &reader)
            let website = try reader.optional { try $0.string() }, location = try reader.optional { try $0.string() }
            let following = try reader.strings()
            let avatar = try reader.optional { try readImage(from: &$0, root: root) }
            let profile = Profile(handle: handle, name: name, bio: bio, website: website, location: location,
                                  following: following, avatar: avatar, sourcePath: try reader.string())
            let entry = ProfileEntry(stamp: stamp, profile: profile, following: try readReferences(from: &reader), diagnostics: [])
            guard isPlausible(entry, folder: folder) else { throw ByteReader.Malformed() }
            return (folder, entry)
        }
        guard reader.isAtEnd else { throw ByteReader.Malformed() }
        return (key, entries)
    }

    /// What a load of the user folder `folder` can make, and nothing else, as `isPlausible` of a
    /// post: its own handle, profile file and avatar, handles that are handles, a website the
    /// loader takes (the other texts are escaped where they are shown).
    static func isPlausible(_ entry: ProfileEntry, folder: String) -> Bool {
        let profile = entry.profile
        return isJoined(folder, "users/", profile.handle) && Handle.isValid(profile.handle)
            && isJoined(profile.sourcePath, "content/", folder, "/profile.md")
            && profile.avatar.map { isPlainFile($0.path, in: folder) } ?? true
            && profile.website.map(WebLink.isSafe) ?? true
            && profile.following.allSatisfy(Handle.isValid) && entry.following.allSatisfy { Handle.isValid($0.handle) }
            && profile.bio.mentions.allSatisfy(Handle.isValid)
    }

    private static func write(_ references: [Reference], to writer: inout ByteWriter) {
        writer.list(references) { writer, reference in
            writer.string(reference.handle)
            write(reference.location, to: &writer)
            writer.string(reference.role)
        }
    }

    private static func readReferences(from reader: inout ByteReader) throws -> [Reference] {
        try reader.list { reader in
            Reference(handle: try reader.string(), location: try readLocation(from: &reader), role: try reader.string())
        }
    }

    private static func write(_ loaded: LoadedPost, to writer: inout ByteWriter) {
        let post = loaded.post
        writer.string(post.id)
        writer.string(post.author)
        writer.double(post.date.instant.timeIntervalSinceReferenceDate)
        writer.int(post.date.utcOffsetSeconds)
        writer.optional(post.location) { $0.string($1) }
        writer.list(post.images) { write($1, to: &$0) }
        write(post.caption, to: &writer)
        writer.strings(post.tagKeys)
        writer.strings(post.likedBy)
        writer.list(post.comments) { writer, comment in
            writer.string(comment.author)
            writer.double(comment.date.timeIntervalSinceReferenceDate)
            write(comment.text, to: &writer)
        }
        writer.bool(post.isDraft)
        writer.bool(post.isSensitive)
        writer.optional(post.showExif) { $0.bool($1) }
        writer.optional(post.repostOf) { $0.string($1) }
        writer.string(post.sourcePath)
        writer.word(post.sourceDigest)
        writer.strings(loaded.tagSpellings)
        write(loaded.references, to: &writer)
        writer.optional(loaded.repostLocation) { write($1, to: &$0) }
    }

    private static func read(from reader: inout ByteReader, root: String) throws -> LoadedPost {
        let id = try reader.string()
        let author = try reader.string()
        let date = PostDate(instant: Date(timeIntervalSinceReferenceDate: try reader.double()), utcOffsetSeconds: try reader.int())
        let location = try reader.optional { try $0.string() }
        let images = try reader.list { try readImage(from: &$0, root: root) }
        let caption = try readText(from: &reader)
        let tagKeys = try reader.strings()
        let likedBy = try reader.strings()
        let comments = try reader.list { reader in
            Comment(author: try reader.string(), date: Date(timeIntervalSinceReferenceDate: try reader.double()),
                    text: try readText(from: &reader))
        }
        let isDraft = try reader.bool()
        let isSensitive = try reader.bool()
        let showExif = try reader.optional { try $0.bool() }
        let repostOf = try reader.optional { try $0.string() }
        let sourcePath = try reader.string()
        let sourceDigest = try reader.word()
        let post = Post(id: id, author: author, date: date, location: location, images: images, caption: caption,
                        tagKeys: tagKeys, likedBy: likedBy, comments: comments, isDraft: isDraft, isSensitive: isSensitive,
                        showExif: showExif, repostOf: repostOf, sourcePath: sourcePath, sourceDigest: sourceDigest)
        let spellings = try reader.strings()
        let references = try readReferences(from: &reader)
        let repostLocation = try reader.optional { try readLocation(from: &$0) }
        return LoadedPost(post: post, tagSpellings: spellings, references: references, repostLocation: repostLocation)
    }

    /// A post's photo or a profile's avatar: its path and alt text (its file's path is made
    /// again from the path, under `root`).
    private static func write(_ image: ImageSource, to writer: inout ByteWriter) {
        writer.string(image.path)
        writer.string(image.alt)
    }

    /// Whether `readImage` gives `image` back as it is: its file where the loader puts it.
    private static func isRemade(_ image: ImageSource, root: String) -> Bool {
        imageFilePath(image.path, root: root) == image.filePath
    }

    private static func readImage(from reader: inout ByteReader, root: String) throws -> ImageSource {
        let path = try reader.string()
        guard let file = imageFilePath(path, root: root) else { throw ByteReader.Malformed() }
        return ImageSource(path: path, filePath: file, alt: try reader.string())
    }

    private static func write(_ text: RichText, to writer: inout ByteWriter) {
        writer.string(text.html)
        writer.string(text.plainText)
        writer.strings(text.tags)
        writer.strings(text.mentions)
    }

    private static func readText(from reader: inout ByteReader) throws -> RichText {
        RichText(html: try reader.string(), plainText: try reader.string(), tags: try reader.strings(), mentions: try reader.strings())
    }

    private static func write(_ location: SourceLocation, to writer: inout ByteWriter) {
        writer.string(location.path)
        writer.optional(location.line) { $0.int($1) }
        writer.optional(location.column) { $0.int($1) }
    }

    private static func readLocation(from reader: inout ByteReader) throws -> SourceLocation {
        SourceLocation(try reader.string(), line: try reader.optional { try $0.int() }, column: try reader.optional { try $0.int() })
    }
}
