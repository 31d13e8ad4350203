import GramgenCore
import Testing
@testable import GramgenMarkdown

/// The ASCII shortcuts of `TagKeys` give exactly `TagKey`'s answers.
struct TagKeysTests {
    @Test("the shortcut keys and links equal TagKey's", arguments: [
        "Seoul", "ＳＥＯＵＬ", "seoul\u{FE0F}", "Straße", "summer_2024", String(repeating: "a", count: 250),
        String(repeating: "가", count: 90), "café",
    ])
    func sameAnswers(_ tag: String) {
        let key = TagKeys.key(for: tag)
        #expect(key == TagKey.key(for: tag))
        #expect(TagKeys.urlComponent(for: key) == TagKey.urlComponent(for: key))
    }

    @Test("a caption's tags in every spelling link to one tag page")
    func oneLink() {
        let renderer = MarkdownRenderer(isKnownHandle: { _ in false })
        let html = renderer.render("#Seoul #ＳＥＯＵＬ #seoul\u{FE0F}").text.html
        #expect(html.components(separatedBy: "tags/seoul/").count - 1 == 3, "\(html)")
    }
}
