import Foundation
import GramgenCore
import GramgenMarkdown
import Testing
@testable import GramgenContent

/// Every input the fuzzer (Fuzz/CaptionFuzzer.swift, docs/fuzzing.md) ever stopped on, kept in
/// Fuzz/regressions/ and run through the same steps: read the front matter, render the caption and
/// comments, and check what the fuzzer checks.
struct FuzzRegressionTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/regressions")
    static let cases = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()

    @Test("a fuzzer finding stays fixed", arguments: cases)
    func regression(_ name: String) throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent(name))
        guard let text = String(data: data, encoding: .utf8) else { return }  // TextFile refuses it first
        var diagnostics = Diagnostics()
        let markdown = MarkdownRenderer(isKnownHandle: { $0.hasPrefix("a") })
        let captions = CaptionRenderer(markdown: markdown)
        var htmls: [String] = []
        if let matter = FrontMatter.parse(text, path: "post.md", diagnostics: &diagnostics) {
            matter.fields.warnUnknownKeys(known: PostLoader.keys, diagnostics: &diagnostics)
            _ = References.handles("liked_by", in: matter.fields, diagnostics: &diagnostics)
            for comment in matter.fields.node("comments")?.sequence ?? [] {
                guard let mapping = comment.mapping else { continue }
                let c = matter.fields.nested(mapping)
                let body = c.string("text", diagnostics: &diagnostics) ?? ""
                htmls.append(captions.render(body, path: "post.md", firstLine: 1, diagnostics: &diagnostics).html)
            }
            htmls.append(captions.render(matter.body, path: "post.md", firstLine: matter.bodyFirstLine,
                                         diagnostics: &diagnostics).html)
        }
        for html in htmls {
            #expect(!html.lowercased().contains("<script"))
            #expect(!html.lowercased().contains("href=\"javascript:"))
        }
        // Lines as an editor counts them: LF, CRLF and a lone CR each end one.
        let lines = 1 + text.replacingOccurrences(of: "\r\n", with: "\n").unicodeScalars.filter { $0 == "\n" || $0 == "\r" }.count
        for diagnostic in diagnostics.items {
            if let line = diagnostic.location.line { #expect((1...lines + 1).contains(line), "\(diagnostic)") }
            #expect(!diagnostic.description.contains("\n"), "a diagnostic is one line")
        }
    }

    /// YAML 1.1 ends lines at U+0085, U+2028 and U+2029; editors do not, so positions after one
    /// are mapped back to the file's lines (the fuzzer's second finding).
    @Test("a NEL, LS or PS inside front matter does not shift the lines of later problems", arguments: ["\u{85}", "\u{2028}", "\u{2029}"])
    func unicodeLineBreaks(_ lineBreak: String) {
        var diagnostics = Diagnostics()
        let text = "---\nname: \"a\(lineBreak)b\(lineBreak)c\"\nlocaton: x\n---\n"
        _ = FrontMatter.parse(text, path: "p.md", diagnostics: &diagnostics)?.fields
            .warnUnknownKeys(known: ["name", "location"], diagnostics: &diagnostics)
        #expect(diagnostics.items.map(\.location) == [SourceLocation("p.md", line: 3, column: 1)])
        var broken = Diagnostics(), plain = Diagnostics()
        _ = FrontMatter.parse("---\nname: \"a\(lineBreak)b\"\nbad: [x\n---\n", path: "p.md", diagnostics: &broken)
        _ = FrontMatter.parse("---\nname: \"a b\"\nbad: [x\n---\n", path: "p.md", diagnostics: &plain)
        #expect(broken.items.map(\.location.line) == plain.items.map(\.location.line))
        #expect(broken.items.count == 1)
    }

    @Test("the regression folder is not empty")
    func hasCases() { #expect(!Self.cases.isEmpty) }
}
