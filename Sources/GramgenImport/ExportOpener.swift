import Foundation
import GramgenCore

/// Gives the import a folder to read, whether the user passed the export's folder or the .zip
/// Instagram sends. A zip is unpacked with the system `unzip` into a temporary folder that
/// `close()` removes: no zip library to depend on, and unzip already refuses `../` paths.
final class ExportOpener {
    /// Folders that can be gigabytes of direct-message media the import never reads.
    static let skippedInZip = ["*messages/inbox/*", "*messages/message_requests/*", "*messages/photos/*"]

    let unzipPath: String
    private var temporaryFolders: [URL] = []
    /// Conversations of direct messages in the zips opened (left packed, but counted for the report).
    private(set) var zippedConversations = Set<String>()

    /// `unzipPath` is injectable so a test can simulate a machine without unzip.
    init(unzipPath: String = ExportOpener.defaultUnzipPath()) {
        self.unzipPath = unzipPath
    }

    deinit { close() }

    /// `/usr/bin/unzip`, or the first `unzip` on PATH.
    static func defaultUnzipPath() -> String {
        let candidates = ["/usr/bin/unzip"] + (ProcessInfo.processInfo.environment["PATH"] ?? "")
            .split(separator: ":").map { "\($0)/unzip" }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/usr/bin/unzip"
    }

    /// The folder holding the export. `name` is the path as the user wrote it, for messages.
    func open(_ url: URL, name: String) throws -> URL {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ImportError.exportNotFound(path: name)
        }
        if isDirectory.boolValue { return url }
        // Before anything opens it: a FIFO named export.zip would block the import for ever.
        if case .failure(let failure) = InputFile.check(atPath: url.path) {
            throw ImportError.notAFile(path: name, detail: failure.message)
        }
        guard url.pathExtension.lowercased() == "zip" || Self.looksLikeZip(url) else {
            throw ImportError.notAnExport(path: name)
        }
        guard FileManager.default.isExecutableFile(atPath: unzipPath) else { throw ImportError.unzipMissing(zip: name) }
        let folder = try makeTemporaryFolder()
        try unzip(url, into: folder, name: name)
        zippedConversations.formUnion(conversations(in: url))
        return folder
    }

    /// A new folder that `close()` removes.
    private func makeTemporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gramgen-import-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw ImportError.writeFailed(path: folder.path, detail: error.localizedDescription)
        }
        temporaryFolders.append(folder)
        return folder
    }

    /// One folder holding every part of an export that Instagram split into several files
    /// (large accounts get `part 1 of 3` … zips): each zip is unpacked into it and each folder's
    /// regular files are linked (or copied) into it; a file two parts both hold is taken from
    /// the first. A single part is opened as it is.
    func open(parts: [(url: URL, name: String)]) throws -> URL {
        guard parts.count > 1 else { return try open(parts[0].url, name: parts[0].name) }
        let folder = try makeTemporaryFolder()
        for part in parts {
            let opened = try open(part.url, name: part.name)
            try merge(opened, into: folder, name: part.name)
        }
        return folder
    }

    /// Links (or copies) every regular file below `source` into the same place below `target`,
    /// keeping files already there; links and special files are left out, as the import would
    /// not read them either.
    private func merge(_ source: URL, into target: URL, name: String) throws {
        let manager = FileManager.default
        guard let walker = manager.enumerator(at: source, includingPropertiesForKeys: [.isRegularFileKey, .isDirectoryKey, .isSymbolicLinkKey],
                                              options: []) else { return }
        let base = source.standardizedFileURL.path
        for case let url as URL in walker {
            let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .isDirectoryKey, .isSymbolicLinkKey])
            let relative = String(url.standardizedFileURL.path.dropFirst(base.count + 1))
            let destination = target.appendingPathComponent(relative)
            do {
                if values?.isSymbolicLink == true {
                    walker.skipDescendants()
                } else if values?.isDirectory == true {
                    try manager.createDirectory(at: destination, withIntermediateDirectories: true)
                } else if values?.isRegularFile == true, !manager.fileExists(atPath: destination.path) {
                    if link(url.path, destination.path) != 0 { try manager.copyItem(at: url, to: destination) }
                }
            } catch {
                throw ImportError.writeFailed(path: destination.path, detail: "cannot gather \(name): \(error.localizedDescription)")
            }
        }
    }

    /// Removes the temporary folders of unpacked zips.
    func close() {
        for folder in temporaryFolders { try? FileManager.default.removeItem(at: folder) }
        temporaryFolders.removeAll()
    }

    /// `…/messages/inbox/<conversation>/` folders the zip holds, from its list of names.
    private func conversations(in zip: URL) -> Set<String> {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: unzipPath)
        process.arguments = ["-Z1", zip.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return [] }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        var found = Set<String>()
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            guard let range = line.range(of: "messages/inbox/") else { continue }
            if let name = line[range.upperBound...].split(separator: "/").first { found.insert(String(name)) }
        }
        return found
    }

    private func unzip(_ zip: URL, into folder: URL, name: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: unzipPath)
        process.arguments = ["-qq", "-o", zip.path, "-d", folder.path, "-x"] + Self.skippedInZip
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw ImportError.unzipMissing(zip: name)
        }
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        // Exit 1 is "warnings only" (e.g. an excluded pattern matched nothing); 11 is "no
        // matching files", which the `-x` list can cause on a zip without messages.
        guard [0, 1, 11].contains(process.terminationStatus) else {
            let detail = String(decoding: message, as: UTF8.self)
                .split(separator: "\n").first.map(String.init) ?? "exit status \(process.terminationStatus)"
            throw ImportError.unzipFailed(zip: name, detail: detail)
        }
    }

    /// A zip starts with "PK\u{3}\u{4}", whatever its name.
    private static func looksLikeZip(_ url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 4)) ?? Data()
        return head == Data([0x50, 0x4B, 0x03, 0x04])
    }
}
