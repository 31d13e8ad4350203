import Foundation
import Testing
@testable import GramgenBuild

/// Builds the repository's demo site with the real libvips and cmark-gfm and checks the result
/// the way a visitor would meet it: every page, link target and image file exists.
struct DemoSiteTests {
    @Test("the demo site builds without problems and every link resolves")
    func demoSite() throws {
        let output = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(output) }
        let report = try TestSupport.build(site: TestSupport.repositoryRoot, output: output)
        #expect(report.diagnostics.items.isEmpty, "\(report.diagnostics.sorted.map(\.description))")
        #expect(report.published)
        #expect(report.userCount >= 6)
        #expect(report.postCount >= 24)

        let files = TestSupport.files(in: output)
        #expect(files.filter { $0.hasPrefix("media/") }.count >= 100)
        let broken = LinkChecker.brokenLinks(in: output)
        #expect(broken.isEmpty, "broken links: \(broken.prefix(20))")

        // Every <img> carries width, height, alt and srcset.
        for page in files where page.hasSuffix(".html") {
            let html = try String(contentsOf: output.appendingPathComponent(page), encoding: .utf8)
            for tag in html.components(separatedBy: "<img ").dropFirst() {
                let attributes = tag.prefix { $0 != ">" }
                for name in [" width=\"", " height=\"", " alt=\"", " srcset=\""] {
                    #expect((" " + attributes).contains(name), "\(page): <img> without\(name)")
                }
            }
        }
    }
}
