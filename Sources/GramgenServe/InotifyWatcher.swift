#if os(Linux)
import Foundation
import Glibc
import GramgenBuild

/// Linux's change notification: one watch per folder under content/, templates/ and static/ (inotify
/// is not recursive), added again for folders that appear later, plus one on the site folder to
/// notice an input folder being created or removed. Every call into inotify is in this file.
final class InotifyWatcher: @unchecked Sendable {
    let siteRoot: URL
    let debounceMilliseconds: Int
    /// The shorter quiet after an event that finished a file (`Event.finished`).
    let settleMilliseconds: Int
    private let fd: Int32
    /// Watch descriptor → folder path; only touched by the watching thread.
    private var folders: [Int32: String] = [:]
    private var rootWatch: Int32 = -1
    /// Told which folders each event is in (and every folder newly watched, whose earlier events
    /// were not seen), so a rebuild reads only those.
    private let folderChanges: FolderChanges?
    /// The site folder's path with a slash, to make watched paths relative.
    private let rootPrefix: String

    private static let folderMask = UInt32(IN_MODIFY) | UInt32(IN_CLOSE_WRITE) | UInt32(IN_CREATE) | UInt32(IN_DELETE)
        | UInt32(IN_MOVED_FROM) | UInt32(IN_MOVED_TO) | UInt32(IN_ATTRIB) | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF)
        | UInt32(IN_ONLYDIR) | UInt32(IN_DONT_FOLLOW)
    private static let rootMask = UInt32(IN_CREATE) | UInt32(IN_DELETE) | UInt32(IN_MOVED_FROM) | UInt32(IN_MOVED_TO)
        | UInt32(IN_ONLYDIR)

    /// Nil when the kernel refuses an inotify instance (then the caller polls).
    init?(siteRoot: URL, debounceMilliseconds: Int, settleMilliseconds: Int, folderChanges: FolderChanges? = nil) {
        let fd = inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        self.fd = fd
        self.folderChanges = folderChanges
        self.siteRoot = siteRoot.standardizedFileURL
        rootPrefix = self.siteRoot.path.hasSuffix("/") ? self.siteRoot.path : self.siteRoot.path + "/"
        self.debounceMilliseconds = debounceMilliseconds
        self.settleMilliseconds = settleMilliseconds
        rootWatch = inotify_add_watch(fd, self.siteRoot.path, Self.rootMask)
        guard rootWatch >= 0 else {
            close(fd)
            return nil
        }
        for name in WatchFilter.inputFolders { addRecursively(self.siteRoot.appendingPathComponent(name).path) }
        folderChanges?.attach()
    }

    deinit { close(fd) }

    /// What an event says about the inputs.
    enum Event {
        /// Nothing a build reads.
        case ignored
        /// Something changed and may go on changing (a file opened for writing, a folder made).
        case changing
        /// A file is complete: closed after writing, moved into place, or deleted. An editor's
        /// save ends with one of these, so a burst whose last event is one settles sooner.
        case finished
    }

    /// Blocks the calling thread until `flag` is set, calling `changed` after each quiet interval
    /// that follows a relevant event: `settleMilliseconds` when the last event finished a file,
    /// else `debounceMilliseconds`.
    func run(until flag: StopFlag, changed: () -> Void) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var pending: (since: Date, quiet: Int)?
        while !flag.isStopped {
            var wait: Int32 = 250
            if let (since, quiet) = pending {
                let left = Double(quiet) / 1000 - Date().timeIntervalSince(since)
                if left <= 0 {
                    folderChanges?.burstEnded()
                    changed()
                    pending = nil
                    continue
                }
                wait = Int32(max(1, (left * 1000).rounded(.up)))
            }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, wait) > 0 else { continue }
            switch readEvents(into: &buffer) {
            case .ignored: break
            case .changing: pending = (Date(), debounceMilliseconds)
            case .finished: pending = (Date(), settleMilliseconds)
            }
        }
    }

    /// Reads what is queued; what its last relevant event says (`ignored` when none is relevant).
    private func readEvents(into buffer: inout [UInt8]) -> Event {
        var last = Event.ignored
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { return last }
            var offset = 0
            let headerSize = MemoryLayout<Int32>.size + 3 * MemoryLayout<UInt32>.size
            while offset + headerSize <= count {
                let (wd, mask, nameLength) = buffer.withUnsafeBytes { raw in
                    (raw.loadUnaligned(fromByteOffset: offset, as: Int32.self),
                     raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                     Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)))
                }
                let nameBytes = buffer[(offset + headerSize)..<min(count, offset + headerSize + nameLength)]
                let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                offset += headerSize + nameLength
                let event = handle(wd: wd, mask: mask, name: name)
                if event != .ignored { last = event }
            }
        }
    }

    private func handle(wd: Int32, mask: UInt32, name: String) -> Event {
        if mask & UInt32(IN_Q_OVERFLOW) != 0 {
            // Events were lost: watch everything again and rebuild to be safe.
            folderChanges?.lost()
            for name in WatchFilter.inputFolders { addRecursively(siteRoot.appendingPathComponent(name).path) }
            return .changing
        }
        if mask & UInt32(IN_IGNORED) != 0 {
            folders[wd] = nil
            return .ignored
        }
        if wd == rootWatch {
            guard WatchFilter.inputFolders.contains(name) else { return .ignored }
            folderChanges?.lost()
            if mask & (UInt32(IN_CREATE) | UInt32(IN_MOVED_TO)) != 0 { addRecursively(siteRoot.appendingPathComponent(name).path) }
            return .changing
        }
        guard let folder = folders[wd] else { return .ignored }
        // Whatever the name: the build lists every file, ignored names too.
        changed(folder)
        if mask & (UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF)) != 0 { return .changing }
        let isFolder = mask & UInt32(IN_ISDIR) != 0
        if WatchFilter.isIgnored(name: name) {
            // Not watched, but the build reads it (see `addRecursively`).
            if isFolder && mask & (UInt32(IN_CREATE) | UInt32(IN_MOVED_TO)) != 0 { folderChanges?.unwatched() }
            return .ignored
        }
        if isFolder && mask & (UInt32(IN_CREATE) | UInt32(IN_MOVED_TO)) != 0 {
            let filled = addRecursively(folder + "/" + name)
            // A folder moved in is complete: a rename moves it whole. One made and already
            // holding something when its watch was added was filled before it (a post folder
            // copied in, or made and written by a script): whatever is still written to it now
            // shows as events of that watch, which end the burst as any file's do. Only an empty
            // new folder waits the quiet interval for what is put in it. (Waited for as one still
            // being filled, a post made by a script reloaded 110 ms later than its files alone.)
            if mask & UInt32(IN_MOVED_TO) != 0 || filled { return .finished }
        }
        // Opening, or attribute changes of folders, say nothing about content.
        if isFolder && mask & UInt32(IN_ATTRIB) != 0 { return .ignored }
        // An empty folder made is usually about to be filled (a post being written); a file's
        // new times or mode (`touch`, `chmod`) are complete at once.
        let finishes = UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_DELETE) | UInt32(IN_ATTRIB)
        if !isFolder && mask & finishes != 0 { return .finished }
        return .changing
    }

    /// Watches the folder at `path` and every folder below it; whether it held anything.
    @discardableResult
    private func addRecursively(_ path: String) -> Bool {
        let wd = inotify_add_watch(fd, path, Self.folderMask)
        guard wd >= 0 else {
            // Out of watches (fs.inotify.max_user_watches), or gone already: changes in there
            // would go unseen, so every build reads every folder.
            if errno != ENOENT && errno != ENOTDIR { folderChanges?.unwatched() }
            return false
        }
        folders[wd] = path
        changed(path)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return false }
        for name in names {
            let child = path + "/" + name
            var info = stat()
            // lstat: a link to a folder is not followed, so no watch escapes the site.
            guard lstat(child, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { continue }
            if !WatchFilter.isIgnored(name: name) {
                addRecursively(child)
            } else {
                // The build still reads it: with a folder left unwatched, every build reads every folder.
                folderChanges?.unwatched()
            }
        }
        return !names.isEmpty
    }

    /// Tells `folderChanges` that the folder at the absolute `path` changed.
    private func changed(_ path: String) {
        guard let folderChanges else { return }
        if path.hasPrefix(rootPrefix) {
            folderChanges.changed(String(path.dropFirst(rootPrefix.count)))
        } else {
            folderChanges.lost()
        }
    }
}
#endif
