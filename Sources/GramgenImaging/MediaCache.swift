import Crypto
import Foundation
import GramgenCore
#if canImport(Glibc)
import Glibc
#endif

/// Processed images kept across builds, so an unchanged photo is never processed again.
///
/// Layout: `media/<content-hash>.<ext>` holds every file made (shared by identical outputs);
/// `index` records what each source with one set of settings produced, one line per cache key
/// (see `IndexLine`). The key covers the source's bytes, the image settings, the role and the
/// pipeline version. A build reads the index and lists `media/` once, on its first lookup, and
/// uses an entry only when every one of its files is listed. Each processed image's files are
/// written before its line is appended, so a build that is killed keeps what it finished (a line
/// cut short is skipped); a finished build rewrites the index with just the entries it used.
/// Deleting the folder only costs time.
public final class MediaCache: @unchecked Sendable {
    public let directory: URL
    let mediaDirectory: URL
    let indexPath: String
    /// The folder of the files (`filePath`).
    public let mediaPath: String

    private let lock = NSLock()
    private var loaded = false
    /// Whether `media` holds the listing of `media/` (read before the index, or alone: `haveFiles`).
    private var listed = false
    private var entries: [String: ProcessedImage] = [:]
    /// Names in `media/` as listed on load, plus the files written since.
    private var media: Set<String> = []
    /// The index open for appending; -1 until the first store.
    private var appender: Int32 = -1
    /// What the index needs before the next appended line: nothing, a newline ending a line cut
    /// short, or a fresh start (missing, or written by another version).
    private var indexState = IndexState.fresh
    /// Lines the index held when read (a damaged or repeated line makes it differ from `entries`).
    private var indexLines = 0
    /// Whether `listAhead` started the listing.
    private var listingAhead = false
    /// Times `haveFiles` answered from the record alone (tests).
    private(set) var fromRecord = 0
    /// Times `media/` was listed (tests).
    private(set) var listings = 0
    /// The stamp of `media/` while it was listed (nil when it moved meanwhile).
    private var listedStamp: FolderStamp?
    /// Whether this process made or moved a file into `media/` since the last prune.
    private var folderTouched = false
    /// Whether `makeWorkFolder` has removed what dead processes left.
    private var workCleaned = false

    private enum IndexState { case ready, cutShort, fresh }

    public init(directory: URL) throws {
        self.directory = directory
        mediaDirectory = directory.appendingPathComponent("media")
        mediaPath = mediaDirectory.path
        indexPath = directory.appendingPathComponent("index").path
        try FileManager.default.createDirectory(at: mediaDirectory, withIntermediateDirectories: true)
    }

    deinit {
        if appender >= 0 { close(appender) }
    }

    /// The settings as the key covers them; compute once per build for `key(sourceDigest:fingerprint:role:)`.
    public static func fingerprint(_ settings: ImageSettings) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(settings)) ?? Data()
    }

    /// The settings a video's key covers: its poster's image settings and the video settings.
    public static func fingerprint(_ settings: ImageSettings, videos: VideoSettings) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return fingerprint(settings) + ((try? encoder.encode(videos)) ?? Data())
    }

    public static func key(sourceDigest: String, fingerprint: Data, role: ImageRole) -> String {
        var hasher = SHA256()
        hasher.update(data: Data(sourceDigest.utf8))
        hasher.update(data: fingerprint)
        hasher.update(data: Data("\(role.rawValue)/\(ImageProcessor.pipelineVersion)".utf8))
        if role == .video { hasher.update(data: Data("/video \(VideoProcessor.pipelineVersion)".utf8)) }
        return Hex.string(hasher.finalize())
    }

    /// SHA-256 of a file's bytes, read in chunks so a huge file does not sit in memory.
    public static func digest(of url: URL) throws -> String {
        let path = url.path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: path]) }
        defer { close(fd) }
        var hasher = SHA256()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(fd, buffer.baseAddress!, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: path])
            }
            if count == 0 { break }
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
        return Hex.string(hasher.finalize())
    }

    /// The cached file `name`, as a path: made for every media file of every build, and Foundation's
    /// `appendingPathComponent` looks at the disk each time to tell a folder from a file.
    public func filePath(for name: String) -> String { mediaPath + "/" + name }

    /// The recorded result for a key, if every one of its files is still there.
    public func lookup(_ key: String) -> ProcessedImage? {
        lock.lock()
        defer { lock.unlock() }
        loadIfNeeded()
        guard let image = entries[key], isComplete(image) else { return nil }
        return image
    }

    /// Whether every file of each image is in `media/`, from its listing alone: for images whose
    /// descriptions a build kept itself (`ImageMemo`), which need no look-up in the index. Not
    /// listed at all when the last prune recorded the folder, as it is now, holding every file
    /// of these very images (`filesDigest(of:)`; 33,000 names at 10,000 posts).
    public func haveFiles(_ images: [ProcessedImage]) -> [Bool] {
        lock.withLock {
            if !listed, let record = IndexRecord(reading: recordPath)?.folder, record.stamp == FolderStamp(mediaPath),
               record.files == Self.filesDigest(of: images) {
                fromRecord += 1
                return [Bool](repeating: true, count: images.count)
            }
            // A few images (a build's new photo whose bytes the last build had): each file looked
            // at, and the listing, which this build's prune will want, made on another thread.
            if !listed, images.count <= 16 {
                listAhead()
                return images.map { $0.allFiles(isFile) }
            }
            listIfNeeded()
            return images.map(isComplete)
        }
    }

    /// Whether `name` is a regular file in `media/`.
    private func isFile(_ name: String) -> Bool {
        var info = stat()
        return lstat(mediaPath + "/" + name, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// Lists `media/` on another thread, once; called with the lock held.
    private func listAhead() {
        guard !listingAhead else { return }
        listingAhead = true
        DispatchQueue.global().async { [self] in lock.withLock { listIfNeeded() } }
    }

    /// `DigestBuilder.unordered` of the names of every file of `images` (a file two images share
    /// counts twice), without a list of them.
    public static func filesDigest<Images: Sequence>(of images: Images) -> UInt64 where Images.Element == ProcessedImage {
        var sum: UInt64 = 0
        for image in images {
            _ = image.allFiles {
                sum &+= DigestBuilder.unorderedPart($0)
                return true
            }
        }
        return sum
    }

    /// Whether every file of `image` is in `media/` as listed; called with the lock held.
    private func isComplete(_ image: ProcessedImage) -> Bool {
        image.allFiles { media.contains($0) }
    }

    /// Records a processed image: `files` are written, `moving` (large files made on disk, such as
    /// videos) are renamed into `media/` from the work folder.
    public func store(_ key: String, image: ProcessedImage, files: [String: Data], moving: [VideoFile] = []) throws {
        let missing: [(name: String, data: Data)] = lock.withLock {
            loadIfNeeded()
            let missing = files.filter { !media.contains($0.key) }.map { ($0.key, $0.value) }
            if !missing.isEmpty || !moving.isEmpty { folderTouched = true }
            return missing
        }
        for (name, data) in missing {
            try AtomicFile.write(data, to: mediaPath + "/" + name)
        }
        for file in moving where rename(file.temporary.path, mediaPath + "/" + file.name) != 0 {
            throw AtomicFile.error(mediaPath + "/" + file.name)
        }
        let line = Array(IndexLine.encode(key: key, image: image).utf8)
        try lock.withLock {
            for (name, _) in missing { media.insert(name) }
            for file in moving { media.insert(file.name) }
            entries[key] = image
            try append(line)
        }
    }

    /// A new empty folder for one job's temporary files (`work/<pid>-<n>` in the cache, on the same
    /// file system as `media/`, so finished files are renamed in). Folders left by processes that
    /// are gone are removed the first time a process asks.
    public func makeWorkFolder() throws -> URL {
        let work = directory.appendingPathComponent("work")
        lock.withLock {
            guard !workCleaned else { return }
            workCleaned = true
            for name in CacheFiles.names(in: work.path) {
                guard let dash = name.firstIndex(of: "-"), let pid = Int32(name[..<dash]),
                      Int(name[name.index(after: dash)...]) != nil else { continue }
                if pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH {
                    try? FileManager.default.removeItem(at: work.appendingPathComponent(name))
                }
            }
        }
        let folder = work.appendingPathComponent("\(getpid())-\(AtomicFile.uniqueNumber())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Rewrites the index with the given entries only and removes the files the last build did not use.
    /// When the index is still the file the last prune left (`IndexRecord`, kept beside it) and
    /// that prune kept the same keys, it is already what it should be and is not read at all
    /// (10,000 lines: most of what a one-off build after an edit spent on its cache once it took
    /// its images from `ImageMemo`). `filesDigest`: `files` are those of the images with that
    /// digest (`filesDigest(of:)`) and no others. A prune that lists `media/`, finds every one of
    /// them and nothing to remove, under a folder stamp that did not move while it looked,
    /// records the folder so (`FolderRecord`); while the folder keeps that stamp, a prune for the
    /// same files has nothing to remove and does not list it, and `haveFiles` finds them all
    /// without a listing. `files` are made only when the folder is looked at. `now`: the clock (tests).
    public func prune(keepingKeys keys: Set<String>, files wanted: @autoclosure () -> Set<String>, filesDigest: UInt64? = nil, now: Date = Date()) {
        lock.lock()
        defer { lock.unlock() }
        let digest = IndexRecord.digest(keys)
        let known = IndexRecord(reading: recordPath)
        // The index as the last prune left it, for the same keys.
        let indexKept = known.map { $0.keys == digest && IndexRecord(indexPath, keys: digest, folder: $0.folder) == $0 } ?? false
        let stamp = FolderStamp(mediaPath)
        // `media/` as the last prune saw it, for the same files: none to remove, each there. Not
        // a look-up of each of its names (33,000 at 10,000 posts, 20 ms of the build's last stretch).
        let folderKept = filesDigest != nil && !folderTouched && stamp != nil && known?.folder == FolderRecord(stamp: stamp!, files: filesDigest!)
        if !loaded, appender < 0, indexKept {
            if !folderKept { listIfNeeded() }
        } else {
            loadIfNeeded()
            // An index read whole, with nothing appended and every entry used, is already what it should be.
            let unchanged = appender < 0 && indexState == .ready && indexLines == entries.count
                && entries.count == keys.count && keys.allSatisfy { entries[$0] != nil }
            if !unchanged { rewriteIndex(keys) }
        }
        var folder = folderKept ? known?.folder : nil
        if !folderKept {
            let files = wanted()
            // One look-up of each name (most often none goes).
            let unused = media.filter { !files.contains($0) }
            let removed = unused.filter(Self.isOwnName)
            for name in removed { unlink(mediaPath + "/" + name) }
            if !unused.isEmpty { media.subtract(unused) }
            // Recorded when the listing shows the folder as it is (nothing made or removed in it
            // since it was listed, by this process or, as its stamp says, another, and that a
            // second ago or more: `FolderStamp.settled`) with every file there (with no name
            // unused, the listing is a part of `files`, the whole when as many).
            if let filesDigest, removed.isEmpty, !folderTouched, let stamp, listedStamp == stamp, let settled = stamp.settled(now: now),
               unused.isEmpty ? media.count == files.count : files.allSatisfy(media.contains) {
                folder = FolderRecord(stamp: settled, files: filesDigest)
            }
        }
        folderTouched = false
        // Entries of gramgen versions that kept one JSON file per entry (a real folder only: a link
        // of that name is not gramgen's).
        var info = stat()
        let legacy = directory.appendingPathComponent("entries")
        if lstat(legacy.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { try? FileManager.default.removeItem(at: legacy) }
        let record = IndexRecord(indexPath, keys: digest, folder: folder)
        if record != known {
            if let record { record.write(to: recordPath) } else { unlink(recordPath) }
        }
    }

    /// What a prune found in `media/`: under the folder's `stamp`, every file of the images
    /// whose `filesDigest(of:)` is `files`, and no other name gramgen makes.
    struct FolderRecord: Equatable, Sendable {
        var stamp: FolderStamp
        var files: UInt64
    }

    /// The identity of a folder: the times and inode that change when a name is made, removed or
    /// renamed in it.
    struct FolderStamp: Equatable, Sendable {
        var modified: Int64
        var changed: Int64
        var inode: UInt64

        init(modified: Int64, changed: Int64, inode: UInt64) {
            (self.modified, self.changed, self.inode) = (modified, changed, inode)
        }

        /// The real folder at `path` (a link is not followed), or nil.
        init?(_ path: String) {
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
            let stamp = SourceDigests.Stamp(info)
            self.init(modified: stamp.modified, changed: stamp.changed, inode: UInt64(bitPattern: stamp.inode))
        }

        /// Self, when the folder last changed a second or more ago; else nil. A file system stamps
        /// times from a clock that moves in steps of some milliseconds: a name made right after
        /// the stamp was taken could leave the folder's times as they were. Once they are a second
        /// old, any change gives them a later value.
        func settled(now: Date) -> FolderStamp? {
            let nanoseconds = Int64(now.timeIntervalSince1970 * 1e9)
            return max(modified, changed) <= nanoseconds - 1_000_000_000 ? self : nil
        }
    }

    /// Where `prune` keeps its `IndexRecord`.
    private var recordPath: String { directory.appendingPathComponent("index-record").path }

    /// The index file as a prune left it: its identity (a file written since, or replaced, has
    /// another: its change time moves whatever is done to the others) and a digest of the keys
    /// it then held, in no order.
    struct IndexRecord: Equatable, Sendable {
        var size: Int64
        var modified: Int64
        var changed: Int64
        var inode: UInt64
        var keys: UInt64
        /// `media/` as the prune found it; nil when not known.
        var folder: FolderRecord?

        init(size: Int64, modified: Int64, changed: Int64, inode: UInt64, keys: UInt64, folder: FolderRecord?) {
            (self.size, self.modified, self.changed, self.inode, self.keys, self.folder) = (size, modified, changed, inode, keys, folder)
        }

        /// The regular file at `path` (a link is not followed), or nil.
        init?(_ path: String, keys: UInt64, folder: FolderRecord?) {
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
            let stamp = SourceDigests.Stamp(info)
            self.init(size: stamp.size, modified: stamp.modified, changed: stamp.changed, inode: UInt64(bitPattern: stamp.inode),
                      keys: keys, folder: folder)
        }

        private static let magic = "gramgen cache index 2"

        /// What `write` wrote to `path`; nil for anything else (a kept file, read as one).
        init?(reading path: String) {
            guard var reader = KeptFile.reader(atPath: path, limit: 256, magic: Self.magic, salt: ""),
                  let size: Int64 = try? reader.int(), let modified: Int64 = try? reader.int(),
                  let changed: Int64 = try? reader.int(), let inode = try? reader.word(), let keys = try? reader.word(),
                  let hasFolder: Int = try? reader.int(), let folderModified: Int64 = try? reader.int(),
                  let folderChanged: Int64 = try? reader.int(), let folderInode = try? reader.word(),
                  let files = try? reader.word(), reader.isAtEnd else { return nil }
            let stamp = FolderStamp(modified: folderModified, changed: folderChanged, inode: folderInode)
            self.init(size: size, modified: modified, changed: changed, inode: inode, keys: keys,
                      folder: hasFolder == 1 ? FolderRecord(stamp: stamp, files: files) : nil)
        }

        func write(to path: String) {
            var writer = KeptFile.writer(magic: Self.magic, salt: "")
            writer.int(size)
            writer.int(modified)
            writer.int(changed)
            writer.word(inode)
            writer.word(keys)
            writer.int(folder == nil ? 0 : 1)
            writer.int(folder?.stamp.modified ?? 0)
            writer.int(folder?.stamp.changed ?? 0)
            writer.word(folder?.stamp.inode ?? 0)
            writer.word(folder?.files ?? 0)
            KeptFile.write(writer, toPath: path)
        }

        /// A digest of a set of keys that does not depend on their order.
        static func digest(_ keys: Set<String>) -> UInt64 { DigestBuilder.unordered(keys) }
    }

    /// Whether gramgen makes files of this name in `media/`: a content name (16 hex digits and
    /// an extension, see `VariantWriter.contentName`) or the temporary file it is written under
    /// (`AtomicFile.write`). Pruning removes only these: anything else found there was
    /// put by someone else and is left alone.
    static func isOwnName(_ name: String) -> Bool {
        func isContentName(_ text: Substring) -> Bool {
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            return parts.count == 2 && parts[0].utf8.count == 16
                && parts[0].utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
                && (1...5).contains(parts[1].utf8.count) && parts[1].utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) }
        }
        if isContentName(name[...]) { return true }
        // `.<name>.<pid>.<n>.tmp`, left by a build killed while writing.
        guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return false }
        let parts = name.dropFirst().dropLast(4).split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && isContentName(Substring(parts[0] + "." + parts[1]))
            && Int(parts[2]) != nil && Int(parts[3]) != nil
    }

    /// The index with just the entries of `keys`; called with the lock held.
    private func rewriteIndex(_ keys: Set<String>) {
        var text = IndexLine.header + "\n"
        for key in keys.sorted() {
            guard let image = entries[key] else { continue }
            text += IndexLine.encode(key: key, image: image)
            text += "\n"
        }
        if appender >= 0 {
            close(appender)
            appender = -1
        }
        do {
            try AtomicFile.write(text: text, to: indexPath)
            entries = entries.filter { keys.contains($0.key) }
            indexLines = entries.count
            indexState = .ready
        } catch {
            indexState = .fresh
        }
    }

    /// Reads the index and lists `media/`; called with the lock held.
    private func loadIfNeeded() {
        guard !loaded else { return }
        loaded = true
        listIfNeeded()
        guard let bytes = CacheFiles.read(indexPath), !bytes.isEmpty else {
            indexState = .fresh
            return
        }
        let records = CacheFiles.records(bytes)
        guard let first = records.first, first.count == 1, String(decoding: first[0], as: UTF8.self) == IndexLine.header else {
            indexState = .fresh
            return
        }
        for record in records.dropFirst() {
            if let (key, image) = IndexLine.decode(record) { entries[key] = image }
        }
        indexLines = records.count - 1
        indexState = bytes.last == 0x0A ? .ready : .cutShort
    }

    /// Lists `media/`; called with the lock held.
    private func listIfNeeded() {
        guard !listed else { return }
        listed = true
        let before = FolderStamp(mediaPath)
        listings += 1
        media = Set(CacheFiles.names(in: mediaPath))
        listedStamp = before == FolderStamp(mediaPath) ? before : nil
    }

    /// Appends one line to the index, opening it first; called with the lock held.
    private func append(_ line: [UInt8]) throws {
        if appender < 0 {
            // Never waited on or written through: opened without blocking and without following a
            // link, and anything but a plain file in its place (a FIFO, a link) is replaced.
            appender = open(indexPath, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW
                                       | (indexState == .fresh ? O_TRUNC : 0), 0o666)
            var info = stat()
            if appender < 0 || fstat(appender, &info) != 0 || info.st_mode & S_IFMT != S_IFREG {
                if appender >= 0 { close(appender) }
                unlink(indexPath)
                appender = open(indexPath, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o666)
                indexState = .fresh
            }
            guard appender >= 0 else { throw AtomicFile.error(indexPath) }
            switch indexState {
            case .fresh: try write(Array((IndexLine.header + "\n").utf8))
            case .cutShort: try write([0x0A])
            case .ready: break
            }
            indexState = .ready
        }
        try write(line + [0x0A])
    }

    /// One write(2) of all the bytes, so lines appended at once by two builds do not interleave.
    private func write(_ bytes: [UInt8]) throws {
        let written = bytes.withUnsafeBytes { raw in
            var count: Int
            repeat { count = Glibc.write(appender, raw.baseAddress!, raw.count) } while count < 0 && errno == EINTR
            return count
        }
        guard written == bytes.count else { throw AtomicFile.error(indexPath) }
    }
}

/// One entry of the cache index, tab-separated on one line:
/// key, width, height, focusX, focusY, dominant colour, placeholder, variants, squares, the six
/// camera fields (empty when absent), and for a video a sixteenth field:
/// `duration;audio;format:width:height:bytes:file,…` (audio `1` or `0`). Variants and squares are
/// `format:width:height:file` joined by commas. Free text is escaped (`CacheFiles.escape`); numbers
/// are written so they read back exactly.
enum IndexLine {
    static let header = "gramgen image cache 1"

    static func encode(key: String, image: ProcessedImage) -> String {
        var fields = [key, String(image.width), String(image.height), "\(image.focusX)", "\(image.focusY)",
                      CacheFiles.escape(image.dominantColor), CacheFiles.escape(image.placeholder),
                      list(image.variants), list(image.squares)]
        let camera = image.camera
        for value in [camera?.camera, camera?.lens, camera?.focalLength, camera?.aperture, camera?.shutter, camera?.iso] {
            fields.append(value.map(CacheFiles.escape) ?? "")
        }
        if let video = image.video {
            fields.append("\(video.duration);\(video.hasAudio ? 1 : 0);"
                + video.renditions.map { "\($0.format.rawValue):\($0.width):\($0.height):\($0.bytes):\($0.file)" }
                    .joined(separator: ","))
        }
        return fields.joined(separator: "\t")
    }

    private static func video(_ field: ArraySlice<UInt8>) -> ProcessedVideo? {
        let parts = field.split(separator: 0x3B, omittingEmptySubsequences: false)
        guard parts.count == 3, let duration = Double(String(decoding: parts[0], as: UTF8.self)),
              parts[1].count == 1, let audio = parts[1].first, audio == 0x30 || audio == 0x31 else { return nil }
        var renditions: [VideoRendition] = []
        for item in parts[2].split(separator: 0x2C) {
            let values = item.split(separator: 0x3A, omittingEmptySubsequences: false)
            guard values.count == 5, let format = VideoFormat(rawValue: String(decoding: values[0], as: UTF8.self)),
                  let width = CacheFiles.integer(values[1]), let height = CacheFiles.integer(values[2]),
                  let bytes = CacheFiles.integer(values[3]), !values[4].isEmpty, !values[4].contains(0x2F)
            else { return nil }
            renditions.append(VideoRendition(format: format, width: Int(width), height: Int(height), bytes: Int(bytes),
                                             file: String(decoding: values[4], as: UTF8.self)))
        }
        guard !renditions.isEmpty else { return nil }
        return ProcessedVideo(duration: duration, hasAudio: audio == 0x31, renditions: renditions)
    }

    private static func list(_ list: [ImageVariant]) -> String {
        list.map { "\($0.format.rawValue):\($0.width):\($0.height):\($0.file)" }.joined(separator: ",")
    }

    /// The entry of a line, or nil when it is not one `encode` writes.
    static func decode(_ fields: [ArraySlice<UInt8>]) -> (String, ProcessedImage)? {
        guard fields.count == 15 || fields.count == 16, fields[0].count == 64,
              let width = CacheFiles.integer(fields[1]), let height = CacheFiles.integer(fields[2]),
              let focusX = Double(String(decoding: fields[3], as: UTF8.self)),
              let focusY = Double(String(decoding: fields[4], as: UTF8.self)),
              let color = CacheFiles.unescape(fields[5]), let placeholder = CacheFiles.unescape(fields[6]),
              let variants = list(fields[7]), let squares = list(fields[8])
        else { return nil }
        var camera: [String?] = []
        for field in fields[9..<15] {
            if field.isEmpty {
                camera.append(nil)
            } else {
                guard let value = CacheFiles.unescape(field) else { return nil }
                camera.append(value)
            }
        }
        let info = CameraInfo(camera: camera[0], lens: camera[1], focalLength: camera[2], aperture: camera[3],
                              shutter: camera[4], iso: camera[5])
        var image = ProcessedImage(width: Int(width), height: Int(height), variants: variants, squares: squares,
                                   focusX: focusX, focusY: focusY, dominantColor: color, placeholder: placeholder,
                                   camera: info.isEmpty ? nil : info)
        if fields.count == 16 {
            guard let video = video(fields[15]) else { return nil }
            image.video = video
        }
        return (String(decoding: fields[0], as: UTF8.self), image)
    }

    private static func list(_ field: ArraySlice<UInt8>) -> [ImageVariant]? {
        if field.isEmpty { return [] }
        var list: [ImageVariant] = []
        for item in field.split(separator: 0x2C, omittingEmptySubsequences: false) {
            let parts = item.split(separator: 0x3A, omittingEmptySubsequences: false)
            guard parts.count == 4, let format = ImageFormat(rawValue: String(decoding: parts[0], as: UTF8.self)),
                  let width = CacheFiles.integer(parts[1]), let height = CacheFiles.integer(parts[2]),
                  !parts[3].isEmpty, !parts[3].contains(0x2F)
            else { return nil }
            list.append(ImageVariant(format: format, width: Int(width), height: Int(height),
                                     file: String(decoding: parts[3], as: UTF8.self)))
        }
        return list
    }
}
