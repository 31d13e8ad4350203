import Foundation
import Testing
@testable import GramgenBuild

/// Sites that are strange but valid: they must build, quickly, and nothing a user wrote may turn
/// into script in any page or feed. Each folder in Fixtures/hostile is one kind; the very large
/// ones (a 1 MB caption, 10,000 hashtags) are made on the fly instead of being stored.
struct HostileSiteTests {
    static let root = TestSupport.fixtures.appendingPathComponent("hostile")
    static let cases = ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).sorted()
    /// Not a speed test (speed is measured in bench/): a bound that only an input making the build
    /// quadratic or unbounded can cross. Each of these sites builds in about 1 s in a debug build
    /// on a 2-core machine, so 60 s leaves a margin of more than 10× for a busy CI machine.
    static let timeLimit: TimeInterval = 60

    @Test("a hostile but valid site builds in bounded time with nothing injected", arguments: cases)
    func hostileSite(_ name: String) throws {
        let report = try buildChecked(site: Self.root.appendingPathComponent(name))
        #expect(report.postCount >= 1)
    }

    @Test("image file names with spaces, quotes, markup and Unicode are fine: media URLs are content hashes")
    func fileNames() throws {
        let output = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(output) }
        let report = try buildChecked(site: Self.root.appendingPathComponent("file-names"), output: output)
        #expect(report.imagesProcessed + report.imagesFromCache == 6)
        for path in TestSupport.files(in: output) {
            #expect(path.unicodeScalars.allSatisfy { $0.isASCII && !" \"'<>&#?%\\".unicodeScalars.contains($0) }, "\(path)")
        }
        let post = try String(contentsOf: output.appendingPathComponent("ann/p/2024-01-01-listed/index.html"), encoding: .utf8)
        #expect(!post.contains("a photo") && !post.contains("quoted") && !post.contains("café"))
    }

    @Test("what users wrote shows as text, escaped, and the theme's script is the only one")
    func injectionIsText() throws {
        let output = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(output) }
        _ = try buildChecked(site: Self.root.appendingPathComponent("injection"), output: output)
        let post = try String(contentsOf: output.appendingPathComponent("ann/p/2024-01-01-a/index.html"), encoding: .utf8)
        // The alt text's quote is followed by a combining mark: escaped all the same.
        #expect(post.contains("alt=\"&quot;\u{301} onload=alert(1) x=&quot;\u{301} &amp;#x3C;script&amp;#x3E;"))
        #expect(post.contains("&lt;/textarea&gt;"))
        #expect(post.contains("<title>ann on 2024") || post.contains("&lt;/title&gt;&lt;script&gt;"))
        let profile = try String(contentsOf: output.appendingPathComponent("ann/index.html"), encoding: .utf8)
        #expect(profile.contains("href=\"https://example.com/?q=%3Cx%3E&amp;a=&#39;b&#39;\""))
        #expect(profile.contains("&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"))
    }

    @Test("a caption at the 64 KB limit builds, and its post page holds all of it; a longer one is refused")
    func longestCaption() throws {
        let line = "Lorem *ipsum* dolor #tag sit @ann amet, consectetur adipiscing elit. <b>x</b> [a](javascript:x)\n"
        let caption = String(repeating: line, count: 64 * 1024 / line.utf8.count)
        let site = try Self.generatedSite(caption: caption)
        defer { try? FileManager.default.removeItem(at: site) }
        let output = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(output) }
        _ = try buildChecked(site: site, output: output)
        let post = try Data(contentsOf: output.appendingPathComponent("ann/p/2024-01-01-big/index.html"))
        #expect(post.count > 64 * 1024)

        let longer = try Self.generatedSite(caption: caption + String(repeating: "a@", count: 2_000))
        defer { try? FileManager.default.removeItem(at: longer) }
        let report = try TestSupport.build(site: longer, output: output)
        #expect(report.diagnostics.sorted.map(\.description) == [
            "content/users/ann/posts/2024-01-01-big/post.md:1: error: the text is 67 KB long; at most 64 KB is allowed — shorten it (Instagram allows 2,200 characters), or split it over several posts",
        ])
    }

    /// Every tag gets a page and a feed holding the post, so output grows with tags × caption:
    /// 10,000 tags would write 10,000 copies of a 100 kB caption. The limit is a clear error.
    @Test("6,000 hashtags in one caption are refused quickly, with a clear error")
    func tenThousandHashtags() throws {
        let site = try Self.generatedSite(caption: (0..<6_000).map { "#tag\($0)" }.joined(separator: " "))
        defer { try? FileManager.default.removeItem(at: site) }
        let output = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(output) }
        let started = Date()
        let report = try TestSupport.build(site: site, output: output)
        // Refusing takes well under 1 s; 10 s (a margin of over 10×) is crossed only if the
        // limit were checked after making 6,000 pages.
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(report.diagnostics.sorted.map(\.description) == [
            "content/users/ann/posts/2024-01-01-big/post.md:1: error: the post has 6000 different hashtags; at most 100 are allowed — remove some (each one makes a page and a feed holding the post), or raise `max_hashtags_per_post` in site.yml",
        ])
    }

    @Test("100 hashtags, the limit, build 100 tag pages")
    func hundredHashtags() throws {
        let site = try Self.generatedSite(caption: (0..<100).map { "#tag\($0)" }.joined(separator: " "))
        defer { try? FileManager.default.removeItem(at: site) }
        let output = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(output) }
        _ = try buildChecked(site: site, output: output)
        let tags = try FileManager.default.contentsOfDirectory(atPath: output.appendingPathComponent("tags").path)
        #expect(tags.filter { $0.hasPrefix("tag") }.count == 100)
    }

    @Test("a caption file over 2 MB is refused with a clear error")
    func oversizedCaption() throws {
        let site = try Self.generatedSite(caption: String(repeating: "a", count: 2 * 1024 * 1024 + 1))
        defer { try? FileManager.default.removeItem(at: site) }
        let output = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(output) }
        let report = try TestSupport.build(site: site, output: output)
        #expect(report.diagnostics.sorted.map(\.description) == [
            "content/users/ann/posts/2024-01-01-big/post.md: error: the file is larger than 2 MB — shorten the text",
        ])
        #expect(!report.published)
    }

    /// Builds, expecting success within the time limit and no unsafe output.
    @discardableResult
    private func buildChecked(site: URL, output: URL? = nil) throws -> BuildReport {
        let folder = try output ?? TestSupport.temporaryFolder()
        defer { if output == nil { try? FileManager.default.removeItem(at: folder) } }
        let started = Date()
        let report = try TestSupport.build(site: site, output: folder)
        let seconds = Date().timeIntervalSince(started)
        #expect(!report.diagnostics.hasErrors, "\(report.diagnostics.sorted.map(\.description))")
        #expect(report.published)
        #expect(seconds < Self.timeLimit, "took \(seconds) s")
        let problems = OutputSafety.problems(inFolder: folder)
        #expect(problems.isEmpty, "\(problems.prefix(20).joined(separator: "\n"))")
        return report
    }

    /// A one-post site whose caption is `caption`, with a copy of a fixture photo.
    static func generatedSite(caption: String) throws -> URL {
        let site = try TestSupport.temporaryFolder("gramgen-generated")
        let post = site.appendingPathComponent("content/users/ann/posts/2024-01-01-big")
        try FileManager.default.createDirectory(at: post, withIntermediateDirectories: true)
        try Data("---\nname: Ann\n---\n".utf8).write(to: site.appendingPathComponent("content/users/ann/profile.md"))
        try Data(caption.utf8).write(to: post.appendingPathComponent("post.md"))
        try FileManager.default.copyItem(at: root.appendingPathComponent("deep-nesting/content/users/ann/posts/2024-01-01-a/1.jpg"),
                                         to: post.appendingPathComponent("1.jpg"))
        return site
    }
}
