import Foundation
@testable import GramgenImport

/// Fixture paths and a throwaway site for the import tests.
enum ImportTestSupport {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let newLayout = fixtures.appendingPathComponent("new-layout")
    static let oldLayout = fixtures.appendingPathComponent("old-layout")
    static let oldLayoutZip = fixtures.appendingPathComponent("old-layout.zip")

    /// A fresh temporary folder, removed by the caller.
    static func temporaryFolder(_ name: String = "gramgen-import-test") throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A site with `content/users/bob` (a profile and one post), so following and mentions resolve.
    static func makeSite() throws -> URL {
        let site = try temporaryFolder("gramgen-import-site")
        try write("""
            ---
            name: "Bob"
            ---
            Hi.
            """, to: site.appendingPathComponent("content/users/bob/profile.md"))
        let post = site.appendingPathComponent("content/users/bob/posts/2024-01-01-hello")
        try write("---\ndate: 2024-01-01T10:00:00Z\n---\nHello\n", to: post.appendingPathComponent("post.md"))
        try FileManager.default.copyItem(at: newLayout.appendingPathComponent("media/posts/202403/431000111_18001_n.jpg"),
                                         to: post.appendingPathComponent("1.jpg"))
        return site
    }

    static func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    static func read(_ site: URL, _ path: String) throws -> String {
        try String(contentsOf: site.appendingPathComponent(path), encoding: .utf8)
    }

    @discardableResult
    static func runImport(_ export: URL, into site: URL, handle: String? = nil, dryRun: Bool = false,
                          unzipPath: String? = nil) throws -> ImportReport {
        var options = InstagramImporter.Options(siteRoot: site, export: export, exportName: export.lastPathComponent,
                                                handle: handle, dryRun: dryRun)
        if let unzipPath { options.unzipPath = unzipPath }
        return try InstagramImporter(options: options).run()
    }

    /// Every regular file below `root` (hidden ones included), as sorted relative paths.
    static func files(in root: URL) -> [String] {
        let base = root.standardizedFileURL.path
        guard let walker = FileManager.default.enumerator(atPath: base) else { return [] }
        var files: [String] = []
        while let path = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: base + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files.append(path)
            }
        }
        return files.sorted()
    }
}
