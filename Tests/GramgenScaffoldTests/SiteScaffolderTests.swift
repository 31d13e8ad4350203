import Foundation
import GramgenBuild
import Testing
@testable import GramgenScaffold

/// `gramgen init`: the new site builds with no diagnostic at all, and nothing existing is replaced.
struct SiteScaffolderTests {
    static let clock = ScaffoldClock.fixed(Date(timeIntervalSince1970: 1_716_615_000), timeZone: TimeZone(secondsFromGMT: 9 * 3600)!)

    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("gramgen-scaffold-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func build(_ site: URL) throws -> BuildReport {
        var options = BuildOptions(siteRoot: site, output: site.appendingPathComponent("public"))
        options.verbosity = .quiet
        return BuildPipeline(options: options, console: Console(verbosity: .quiet, isTerminal: false)).run()
    }

    @Test("a new site builds with zero errors and zero warnings")
    func initBuilds() throws {
        let parent = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        let site = parent.appendingPathComponent("mysite")
        let created = try SiteScaffolder(directory: site, handle: "ann", name: "Ann Lee", clock: Self.clock).run()
        let names = created.map { String($0.path.dropFirst(site.path.count)) }
        for expected in ["/content/site.yml", "/content/users/ann/profile.md", "/content/users/ann/avatar.jpg",
                         "/content/users/ann/posts/2024-05-25-hello/1.jpg", "/content/users/ann/posts/2024-05-25-hello/post.md",
                         "/README.md", "/.gitignore"] {
            #expect(names.contains(expected), "\(expected) not created")
        }
        let post = try String(contentsOf: site.appendingPathComponent("content/users/ann/posts/2024-05-25-hello/post.md"), encoding: .utf8)
        #expect(post.contains("date: 2024-05-25T14:30:00+09:00"))

        let report = try Self.build(site)
        #expect(report.diagnostics.items.isEmpty, "\(report.diagnostics.sorted.map(\.description))")
        #expect(report.published)
        #expect(report.userCount == 1 && report.postCount == 1)
        #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("public/ann/p/2024-05-25-hello/index.html").path))
    }

    @Test("init refuses a folder that is a site already, and a bad handle")
    func initRefuses() throws {
        let site = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: site) }
        try FileManager.default.createDirectory(at: site.appendingPathComponent("content"), withIntermediateDirectories: true)
        #expect(throws: ScaffoldError.self) { try SiteScaffolder(directory: site).run() }
        let other = site.appendingPathComponent("other")
        let error = #expect(throws: ScaffoldError.self) { try SiteScaffolder(directory: other, handle: "Not Valid").run() }
        #expect(error?.message.contains("'Not Valid' is not a valid handle") == true)
        #expect(!FileManager.default.fileExists(atPath: other.path), "nothing was written")
    }

    @Test("init keeps an existing README.md")
    func keepsReadme() throws {
        let site = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: site) }
        try "mine".write(to: site.appendingPathComponent("README.md"), atomically: true, encoding: .utf8)
        let created = try SiteScaffolder(directory: site, clock: Self.clock).run()
        #expect(!created.contains { $0.lastPathComponent == "README.md" })
        #expect(try String(contentsOf: site.appendingPathComponent("README.md"), encoding: .utf8) == "mine")
    }

    @Test("the sample photo is a real JPEG made in code")
    func gradient() throws {
        let data = try GramgenImagingBridge.gradient()
        #expect(data.count > 500)
        #expect(data.prefix(3) == Data([0xFF, 0xD8, 0xFF]))
        let size = try #require(JPEGSize.of(data))
        #expect(size.0 == 64 && size.1 == 48)
    }
}
