import Crypto
import Foundation
import GramgenCore

/// Processed images kept across builds, so an unchanged photo is never processed again.
///
/// Layout: `media/<content-hash>.<ext>` holds every file ever made (shared by identical outputs);
/// `entries/<key>.json` records what one source with one set of settings produced. The key covers
/// the source's bytes, the image settings, the role and the pipeline version. Deleting the folder
/// only costs time.
public final class MediaCache: @unchecked Sendable {
    public let directory: URL
    let mediaDirectory: URL
    let entriesDirectory: URL

    public init(directory: URL) throws {
        self.directory = directory
        mediaDirectory = directory.appendingPathComponent("media")
        entriesDirectory = directory.appendingPathComponent("entries")
        try FileManager.default.createDirectory(at: mediaDirectory, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: entriesDirectory, withIntermediateDirectories: true)
    }

    /// The cache key of a source with the given settings.
    public static func key(sourceDigest: String, settings: ImageSettings, role: ImageRole) -> String {
        key(sourceDigest: sourceDigest, fingerprint: fingerprint(settings), role: role)
    }

    /// The settings as the key covers them; compute once per build for `key(sourceDigest:fingerprint:role:)`.
    public static func fingerprint(_ settings: ImageSettings) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(settings)) ?? Data()
    }

    public static func key(sourceDigest: String, fingerprint: Data, role: ImageRole) -> String {
        var hasher = SHA256()
        hasher.update(data: Data(sourceDigest.utf8))
        hasher.update(data: fingerprint)
        hasher.update(data: Data("\(role.rawValue)/\(ImageProcessor.pipelineVersion)".utf8))
        return hex(hasher.finalize())
    }

    /// Lower-case hexadecimal of bytes.
    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// SHA-256 of a file's bytes, read in chunks so a huge file does not sit in memory.
    public static func digest(of url: URL) throws -> String {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var hasher = SHA256()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            hasher.update(data: chunk)
        }
        return hex(hasher.finalize())
    }

    public func fileURL(for name: String) -> URL { mediaDirectory.appendingPathComponent(name) }

    /// The recorded result for a key, if every one of its files is still there.
    public func lookup(_ key: String) -> ProcessedImage? {
        guard let data = FileManager.default.contents(atPath: entryURL(key).path),
              let image = try? JSONDecoder().decode(ProcessedImage.self, from: data),
              image.files.allSatisfy({ FileManager.default.fileExists(atPath: fileURL(for: $0).path) })
        else { return nil }
        return image
    }

    public func store(_ key: String, image: ProcessedImage, files: [String: Data]) throws {
        for (name, data) in files where !FileManager.default.fileExists(atPath: fileURL(for: name).path) {
            try data.write(to: fileURL(for: name), options: .atomic)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        try encoder.encode(image).write(to: entryURL(key), options: .atomic)
    }

    /// Removes entries and files the last build did not use.
    public func prune(keepingKeys keys: Set<String>, files: Set<String>) {
        let fm = FileManager.default
        for name in (try? fm.contentsOfDirectory(atPath: entriesDirectory.path)) ?? []
        where !keys.contains((name as NSString).deletingPathExtension) {
            try? fm.removeItem(at: entriesDirectory.appendingPathComponent(name))
        }
        for name in (try? fm.contentsOfDirectory(atPath: mediaDirectory.path)) ?? [] where !files.contains(name) {
            try? fm.removeItem(at: mediaDirectory.appendingPathComponent(name))
        }
    }

    private func entryURL(_ key: String) -> URL { entriesDirectory.appendingPathComponent(key + ".json") }
}
