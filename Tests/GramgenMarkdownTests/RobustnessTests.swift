import Foundation
import Testing
import GramgenMarkdown

/// Large, hostile or concurrent input: captions come from users, and sites have 10,000 posts.
@Suite("robustness")
struct RobustnessTests {
    @Test("a 1 MB caption and a caption with 10,000 hashtags render completely")
    func largeCaptions() {
        let paragraph = "Lorem *ipsum* #tag dolor a@b.com @alfred @bob https://x.com/#f sit &amp; amet.\n"
        let big = String(repeating: paragraph, count: 1_000_000 / paragraph.utf8.count + 1)
        let lines = big.split(separator: "\n").count
        let column = paragraph.distance(from: paragraph.startIndex, to: paragraph.range(of: "@bob")!.lowerBound) + 1
        let result = renderer.render(big)
        #expect(result.text.tags.count == lines)
        #expect(result.text.mentions == ["alfred"])
        #expect(result.unknownMentions.count == lines)
        #expect(result.unknownMentions.last == UnknownMention(handle: "bob", line: lines, column: column))

        let oneLine = renderer.render(big.replacingOccurrences(of: "\n", with: " "))
        #expect(oneLine.unknownMentions.count == lines)
        #expect(oneLine.unknownMentions.last?.column == (lines - 1) * paragraph.count + column)

        let manyTags = (0..<10_000).map { "#tag\($0)" }.joined(separator: " ")
        let tagged = renderer.render(manyTags)
        #expect(tagged.text.tags.count == 10_000)
        #expect(tagged.text.tags.last == "tag9999")
    }

    @Test("long runs that are almost tags or mentions stay linear")
    func almostTags() {
        #expect(renderer.render("#" + String(repeating: "a", count: 200_000)).text.tags.isEmpty)
        #expect(renderer.render(String(repeating: "-@", count: 100_000)).unknownMentions.isEmpty)
        #expect(renderer.render(String(repeating: "#", count: 100_000) + "a").text.tags == ["a"])
    }

    @Test("deep nesting does not overflow the stack")
    func deepNesting() {
        let quotes = renderer.render(String(repeating: "> ", count: 5_000) + "#deep @alfred")
        #expect(quotes.text.tags == ["deep"])
        #expect(quotes.text.mentions == ["alfred"])
        let emphasis = String(repeating: "*a ", count: 5_000) + "#deep" + String(repeating: " a*", count: 5_000)
        #expect(renderer.render(emphasis).text.tags == ["deep"])
    }

    /// cmark-gfm 0.29 switches its special characters in a process-wide table during each parse;
    /// without the lock in CmarkDocument, parallel renders lose strikethrough, autolinks and tags.
    @Test("parallel renders give the same result as one at a time")
    func parallelRenders() {
        let caption = (0..<50).map { "~~struck~~ www.example.com #tag\($0) @alfred `code`" }.joined(separator: "\n\n")
        let expected = renderer.render(caption)
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<25 { results.record(renderer.render(caption) == expected) }
        }
        #expect(results.failures == 0)
    }

    @Test("control characters are removed, line ends normalised")
    func controlCharacters() {
        let result = renderer.render("a\u{0}b\u{8}c #t\u{1}ag\r\n@bob\r@carl")
        #expect(result.text.html == "<p>abc <a href=\"gramgen:/tags/tag/\">#tag</a>\n@bob\n@carl</p>\n")
        #expect(result.unknownMentions == [
            UnknownMention(handle: "bob", line: 2, column: 1), UnknownMention(handle: "carl", line: 3, column: 1),
        ])
    }
}

/// Counts failures from many threads at once.
private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var failures: Int { lock.withLock { count } }
    func record(_ success: Bool) { if !success { lock.withLock { count += 1 } } }
}
