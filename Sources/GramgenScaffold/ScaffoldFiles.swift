import Foundation
import GramgenCore

/// Writes new files only: every write refuses to replace an existing file, so a scaffold command can
/// never destroy a user's work, even when two run at once.
struct ScaffoldFiles {
    /// Everything written so far, for the "created …" lines the CLI prints.
    private(set) var created: [URL] = []

    mutating func makeFolder(_ url: URL) throws {
        guard !FileManager.default.fileExists(atPath: url.path) else { return }
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw ScaffoldError("cannot create \(url.path): \(error.localizedDescription)",
                                hint: "check that the folder is writable")
        }
        created.append(url)
    }

    /// Creates a folder that must not exist yet (the post folder), so two commands cannot share one.
    mutating func makeNewFolder(_ url: URL) throws {
        try makeFolder(url.deletingLastPathComponent())
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        } catch {
            throw ScaffoldError("cannot create \(url.path): \(error.localizedDescription)",
                                hint: "check that the folder is writable and does not exist yet")
        }
        created.append(url)
    }

    mutating func write(_ data: Data, to url: URL) throws {
        try makeFolder(url.deletingLastPathComponent())
        do {
            try data.write(to: url, options: .withoutOverwriting)
        } catch {
            if FileManager.default.fileExists(atPath: url.path) {
                throw ScaffoldError("\(url.path) already exists", hint: "move it away, or choose another name")
            }
            throw ScaffoldError("cannot write \(url.path): \(error.localizedDescription)",
                                hint: "check that the folder is writable and the disk has space")
        }
        created.append(url)
    }

    mutating func write(_ text: String, to url: URL) throws {
        try write(Data(text.utf8), to: url)
    }

    /// Copies a file checked beforehand (`PostScaffolder.checkImages`: a regular file within the
    /// size limit), streamed, so a video is never held in memory; an existing target is not replaced.
    mutating func copy(_ source: URL, to url: URL) throws {
        try makeFolder(url.deletingLastPathComponent())
        if FileManager.default.fileExists(atPath: url.path) {
            throw ScaffoldError("\(url.path) already exists", hint: "move it away, or choose another name")
        }
        do {
            try FileManager.default.copyItem(at: source, to: url)
        } catch {
            throw ScaffoldError("cannot copy \(source.path) to \(url.path): \(error.localizedDescription)",
                                hint: "check that the file is readable, the folder writable and the disk has space")
        }
        created.append(url)
    }
}
