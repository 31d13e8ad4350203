import Foundation
import GramgenCore
#if canImport(Glibc)
import Glibc
#endif

/// The built site on disk, and the only way the server reaches it: every lookup resolves links and
/// must land inside the folder, so a symlink (or anything `RequestPath` missed) cannot lead out.
struct OutputFolder: Sendable {
    let root: URL

    init(root: URL) {
        self.root = root.standardizedFileURL
    }

    /// Resolved on every lookup: the folder may not exist until the first build, and its real path
    /// is what a resolved file path must start with.
    private var realRoot: String? { Self.realPath(root.path) }

    /// A file found for a request.
    struct File: Sendable {
        var path: String
        /// As asked for, below the root: `alice/index.html`, `media/ab12.webp`.
        var relative: String
        var name: String
        var size: Int
        var modified: timespec
    }

    enum Lookup {
        case file(File)
        /// A folder asked for without its trailing slash.
        case folder
        case missing
    }

    func lookup(_ segments: [String]) -> Lookup {
        let joined = ([root.path] + segments).joined(separator: "/")
        guard let realRoot, let real = Self.realPath(joined),
              real == realRoot || real.hasPrefix(realRoot + "/") else { return .missing }
        var info = stat()
        guard stat(real, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            return .file(File(path: real, relative: segments.joined(separator: "/"), name: segments.last ?? "", size: Int(info.st_size), modified: info.st_mtim))
        case S_IFDIR:
            return .folder
        default:
            return .missing
        }
    }

    /// The folder's `index.html`, looked up with the same checks.
    func index(of segments: [String]) -> Lookup {
        lookup(segments + ["index.html"])
    }

    /// Reads a whole file; nil when it vanished meanwhile (a rebuild swapped the folder) or is no
    /// longer a regular file (read as inputs are, `InputFile`: never waited on).
    func read(_ file: File) -> Data? {
        try? InputFile.read(atPath: file.path, limit: InputFile.maxMediaBytes).get()
    }

    /// The file opened for reading as it is sent; nil when it vanished meanwhile or is no longer a
    /// regular file (opened without blocking, so a FIFO swapped in after the look-up is not waited on).
    func open(_ file: File) -> FileHandle? {
        let fd = Glibc.open(file.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            return nil
        }
        return FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
