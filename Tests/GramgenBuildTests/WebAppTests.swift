import Foundation
import GramgenCore
import GramgenImaging
import Testing
@testable import GramgenBuild

/// The site as an app: icons made from the logo or the main user's avatar, a web app manifest,
/// and with `offline: true` a service worker that previews and drafts never register.
struct WebAppTests {
    struct Site {
        let root: URL
        var output: URL { root.appendingPathComponent("public") }

        init(siteYML: String = "title: Hana's photos\n") throws {
            root = try TestSupport.temporaryFolder("gramgen-webapp")
            try write("content/site.yml", siteYML)
            try write("content/users/hana/posts/2024-01-01-a/post.md", "First\n")
            try photo("content/users/hana/posts/2024-01-01-a/1.jpg", 400, 300)
        }

        func write(_ path: String, _ text: String) throws {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }

        func photo(_ path: String, _ width: Int, _ height: Int, red: UInt8 = 200) throws {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try SyntheticImage.gradientJPEG(width: width, height: height, from: .init(red, 40, 10), to: .init(10, 90, 220)).write(to: url)
        }

        func build(drafts: Bool = false) throws -> BuildReport {
            try TestSupport.build(site: root, output: output) { $0.includeDrafts = drafts }
        }

        func read(_ path: String) throws -> Data { try Data(contentsOf: output.appendingPathComponent(path)) }
        func page(_ path: String = "index.html") throws -> String { String(decoding: try read(path), as: UTF8.self) }
        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    /// Width and height from a PNG's IHDR chunk.
    static func pngSize(_ data: Data) -> (Int, Int)? {
        let bytes = [UInt8](data)
        guard bytes.count > 24, bytes[1...3] == [0x50, 0x4E, 0x47] else { return nil }
        func be32(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (be32(16), be32(20))
    }

    @Test("icons at every size come from the main user's avatar, with a favicon.ico and a manifest naming them")
    func iconsFromAvatar() throws {
        let site = try Site()
        defer { site.remove() }
        try site.photo("content/users/hana/avatar.jpg", 300, 400)
        let report = try site.build()
        #expect(report.published, "\(report.diagnostics.items)")
        for edge in SiteIcons.edges {
            let size = Self.pngSize(try site.read("icons/icon-\(edge).png"))
            #expect(size.map { [$0.0, $0.1] } == [edge, edge], "icon-\(edge).png")
        }
        let ico = [UInt8](try site.read("favicon.ico"))
        #expect(Array(ico[0..<6]) == [0, 0, 1, 0, 1, 0] && ico[6] == 32 && Self.pngSize(Data(ico[22...])).map { $0.0 } == 32)

        let manifest = try #require(JSONSerialization.jsonObject(with: try site.read("manifest.webmanifest")) as? [String: Any])
        #expect(manifest["name"] as? String == "Hana's photos" && manifest["display"] as? String == "standalone")
        #expect(manifest["start_url"] as? String == "./" && manifest["lang"] as? String == "en")
        let icons = try #require(manifest["icons"] as? [[String: String]])
        #expect(icons.map { $0["sizes"] } == ["192x192", "512x512"] && icons.map { $0["src"] } == ["icons/icon-192.png", "icons/icon-512.png"])

        let home = try site.page()
        #expect(home.contains("<link rel=\"icon\" href=\"icons/icon-32.png\" type=\"image/png\">"))
        #expect(home.contains("<link rel=\"apple-touch-icon\" href=\"icons/icon-180.png\">"))
        #expect(home.contains("<link rel=\"manifest\" href=\"manifest.webmanifest\">"))
        #expect(home.contains("<meta name=\"theme-color\" media=\"(prefers-color-scheme: dark)\""))
        let post = try site.page("hana/p/2024-01-01-a/index.html")
        #expect(post.contains("<link rel=\"manifest\" href=\"../../../manifest.webmanifest\">"))
        #expect(!home.contains("data-sw") && !FileManager.default.fileExists(atPath: site.output.appendingPathComponent("sw.js").path))
    }

    @Test("content/logo.png wins over avatars; a site with no picture gets its title's letter")
    func logoAndLetter() throws {
        let site = try Site()
        defer { site.remove() }
        try site.photo("content/users/hana/avatar.jpg", 300, 300, red: 10)
        try site.photo("content/logo.jpg", 600, 600, red: 250)
        #expect(try site.build().published)
        let fromLogo = try site.read("icons/icon-512.png")
        #expect(try site.page().contains("<a class=\"brand\" href=\"./\"><img class=\"logo\" src=\"icons/icon-32.png\" srcset=\"icons/icon-180.png 2x\" width=\"28\" height=\"28\" alt=\"\">Hana&#39;s photos</a>"))
        try FileManager.default.removeItem(at: site.root.appendingPathComponent("content/logo.jpg"))
        #expect(try site.build().published)
        #expect(try site.read("icons/icon-512.png") != fromLogo, "the avatar's icon replaces the logo's")
        #expect(!(try site.page()).contains("class=\"logo\""), "an avatar makes icons, not a logo")

        try FileManager.default.removeItem(at: site.root.appendingPathComponent("content/users/hana/avatar.jpg"))
        #expect(try site.build().published)
        let svg = try site.page("icons/icon.svg")
        #expect(svg.hasPrefix("<svg") && svg.contains(">H</text>"))
        #expect(try site.page().contains("<link rel=\"icon\" href=\"icons/icon.svg\" type=\"image/svg+xml\">"))
        #expect(!(try site.page()).contains("apple-touch-icon"))
        #expect(!FileManager.default.fileExists(atPath: site.output.appendingPathComponent("icons/icon-512.png").path))
    }

    @Test("a logo linked from outside content/ is an error naming it")
    func linkedLogo() throws {
        let site = try Site()
        defer { site.remove() }
        let outside = try TestSupport.temporaryFolder("gramgen-outside")
        defer { try? FileManager.default.removeItem(at: outside) }
        try SyntheticImage.gradientJPEG(width: 64, height: 64, from: .init(0, 0, 0), to: .init(9, 9, 9))
            .write(to: outside.appendingPathComponent("secret.jpg"))
        try FileManager.default.createSymbolicLink(at: site.root.appendingPathComponent("content/logo.jpg"),
                                                   withDestinationURL: outside.appendingPathComponent("secret.jpg"))
        let report = try site.build()
        #expect(!report.published)
        #expect(report.diagnostics.items.map(\.description).contains {
            $0.contains("content/logo.jpg") && $0.contains("the site's logo: the file is a link to a file outside content/")
        }, "\(report.diagnostics.items)")
    }

    @Test("offline: true registers sw.js on every page; a build with drafts publishes one that unregisters itself")
    func serviceWorker() throws {
        let site = try Site(siteYML: "title: Hana\noffline: true\n")
        defer { site.remove() }
        #expect(try site.build().published)
        let worker = try site.page("sw.js")
        #expect(worker.contains("respondWith") && worker.contains("/_gramgen/"))
        #expect(try site.page().contains("data-sw=\"sw.js\""))
        #expect(try site.page("hana/index.html").contains("data-sw=\"../sw.js\""))

        #expect(try site.build(drafts: true).published)
        #expect(!(try site.page()).contains("data-sw"))
        let retiring = try site.page("sw.js")
        #expect(retiring.contains("unregister()") && !retiring.contains("respondWith"))
    }
}
