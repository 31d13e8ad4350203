import Foundation
import GramgenCore
import Testing
@testable import GramgenContent

/// `PostFile` (the one post.md writer) and `PostLoader` (its reader) agree: what is written is
/// what is read, for values drawn at random over the characters YAML treats specially.
struct PostFileRoundTripTests {
    static let photo = ContentLoaderTests.site.appendingPathComponent("content/users/alice/posts/2024-06-01-market/1.jpg")

    /// Text made of pieces YAML and Markdown give meaning to, and a few letters.
    static func text(_ random: inout SeededRandom, pieces: Int) -> String {
        let parts = ["a", "Z", "서울", "é", " ", ": ", "#", "- ", "'", "\"", "\\", "{", "}", "[", "]", ",", "&", "*", "!",
                     "|", ">", "%", "@", "`", "?", "true", "null", "1.5", "~", "\t"]
        return (0..<pieces).map { _ in parts.randomElement(using: &random)! }.joined()
    }

    @Test("random post.md files read back as written: date, location, photos and alt text, tags, draft, caption")
    func roundTrip() throws {
        var random = SeededRandom.forTest("PostFileRoundTripTests.roundTrip")
        let site = FileManager.default.temporaryDirectory.appendingPathComponent("gramgen-postfile-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: site) }
        let user = site.appendingPathComponent("content/users/ann")
        try FileManager.default.createDirectory(at: user.appendingPathComponent("posts"), withIntermediateDirectories: true)
        try "---\nname: Ann\n---\n".write(to: user.appendingPathComponent("profile.md"), atomically: true, encoding: .utf8)

        let names = ["1.jpg", "My Photo #1.jpg", "true.jpg", "2024.jpg", "a'b.jpg", "-x.jpg", "IMG_0001.jpg"]
        var written: [String: PostFile] = [:]
        for index in 0..<40 {
            let id = "2024-01-\(String(format: "%02d", index % 28 + 1))-p\(index)"
            let folder = user.appendingPathComponent("posts/\(id)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let files = Array(names.shuffled(using: &random).prefix(Int.random(in: 1...3, using: &random)))
            for name in files { try FileManager.default.copyItem(at: Self.photo, to: folder.appendingPathComponent(name)) }
            var post = PostFile(
                date: "2024-01-\(String(format: "%02d", index % 28 + 1))T10:\(String(format: "%02d", index % 60)):00+09:00",
                location: Bool.random(using: &random) ? nil : "Place" + Self.text(&random, pieces: 6),
                images: files.map { PostFile.Media(file: $0, alt: Bool.random(using: &random) ? nil : "Alt " + Self.text(&random, pieces: 8)) },
                caption: "Caption \(index) about #tag\(index)")
            post.tags = Bool.random(using: &random) ? ["extra\(index)", "stories"] : []
            post.draft = Bool.random(using: &random)
            post.draftNote = post.draft ? "a note" : nil
            try post.text.write(to: folder.appendingPathComponent("post.md"), atomically: true, encoding: .utf8)
            written["ann/\(id)"] = post
        }

        var diagnostics = Diagnostics()
        let loaded = try #require(ContentLoader(siteRoot: site, options: .init(includeDrafts: true)).load(diagnostics: &diagnostics))
        #expect(diagnostics.items.filter { $0.severity == .error }.isEmpty, "\(diagnostics.sorted.map(\.description))")
        #expect(loaded.posts.count == written.count)
        for post in loaded.posts {
            let file = try #require(written[post.key])
            #expect(post.location == file.location, "\(post.key)")
            #expect(post.images.map { ($0.path as NSString).lastPathComponent } == file.images.map(\.file), "\(post.key)")
            #expect(post.images.map(\.alt) == file.images.map { $0.alt ?? "" }, "\(post.key)")
            #expect(post.isDraft == file.draft, "\(post.key)")
            #expect(post.caption.plainText.contains(file.caption), "\(post.key)")
            #expect(Set(file.tags.map(TagKey.key(for:))).isSubset(of: Set(post.tagKeys)), "\(post.key)")
            #expect(ISO8601DateFormatter().date(from: file.date) == post.date.instant && post.date.utcOffsetSeconds == 9 * 3600, "\(post.key)")
        }
    }
}
