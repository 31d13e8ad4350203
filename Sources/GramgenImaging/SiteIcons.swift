import Foundation
import GramgenCore

/// The site's icons: the browser tab's favicon, the home-screen icon of phones and the web app
/// manifest's icons, all square PNG crops of one image (`Site.iconSource`).
public enum SiteIcons {
    /// 32 (browser tabs), 180 (Apple's home screen), 192 and 512 (the manifest: Android, desktop).
    public static let edges = [32, 180, 192, 512]
    /// Bumped when the files made for the same image change.
    public static let version = 1
    /// At the output's root, where browsers look for it unasked.
    public static let favicon = SitePaths.favicon

    /// Where each icon is published.
    public static func fileName(_ edge: Int) -> String { SitePaths.icon(edge) }

    /// The icons of the image whose bytes have `digest`, made once and kept in `cacheFolder`
    /// (`<key>/`, only the current key kept), so a rebuild reads five small files.
    public static func files(from url: URL, digest: String, settings: ImageSettings, cacheFolder: URL) throws -> [String: [UInt8]] {
        func flat(_ name: String) -> String { name.replacingOccurrences(of: "/", with: "_") }
        let key = String(ContentHash.hex(Data("\(digest) \(version)".utf8)).prefix(16))
        let folder = cacheFolder.appendingPathComponent(key)
        let done = folder.appendingPathComponent("done").path
        if FileManager.default.fileExists(atPath: done) {
            var found: [String: [UInt8]] = [:]
            for name in edges.map(fileName) + [favicon] {
                if let bytes = CacheFiles.read(folder.appendingPathComponent(flat(name)).path) { found[name] = bytes }
            }
            if found[favicon] != nil { return found }
        }
        let made = try ImageProcessor(settings: settings).icons(url)
        try? FileManager.default.removeItem(at: cacheFolder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, data) in made { try AtomicFile.write(data, to: folder.appendingPathComponent(flat(name)).path) }
        try AtomicFile.write(Data(), to: done)
        return made.mapValues { Array($0) }
    }

    /// An ICO file holding one PNG (every browser since 2012 reads PNG inside ICO).
    static func ico(png: Data, edge: Int) -> Data {
        func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xff), UInt8(value >> 8 & 0xff)] }
        func le32(_ value: Int) -> [UInt8] { le16(value & 0xffff) + le16(value >> 16 & 0xffff) }
        let side = UInt8(edge >= 256 ? 0 : edge)
        var data = Data(le16(0) + le16(1) + le16(1)) // reserved, type 1 (icon), one image
        data.append(contentsOf: [side, side, 0, 0] + le16(1) + le16(32) + le32(png.count) + le32(6 + 16))
        data.append(png)
        return data
    }
}
