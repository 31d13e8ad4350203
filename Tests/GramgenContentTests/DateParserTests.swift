import Foundation
import Testing
@testable import GramgenContent

struct DateParserTests {
    @Test("dates people write", arguments: [
        ("2024-05-25", 1_716_595_200.0, 0),
        ("2024-05-25T14:30:00+09:00", 1_716_615_000.0, 32400),
        ("2024-05-25T05:30:00Z", 1_716_615_000.0, 0),
        ("2024-05-25 05:30", 1_716_615_000.0, 0),
        ("2024-05-25T05:30:00.250Z", 1_716_615_000.0, 0),
        ("2024-05-25T01:30:00-04:00", 1_716_615_000.0, -14400),
    ])
    func parses(_ text: String, _ seconds: Double, _ offset: Int) {
        let date = DateParser.parse(text)
        #expect(date?.instant.timeIntervalSince1970 == seconds)
        #expect(date?.utcOffsetSeconds == offset)
    }

    @Test("not dates", arguments: ["2024-13-01", "2024-02-30", "yesterday", "2024-05-25T25:00", "24-05-25", "2024-05-25T10:00+15:00", ""])
    func rejects(_ text: String) {
        #expect(DateParser.parse(text) == nil)
    }

    @Test("a post folder name may start with its date")
    func folder() {
        #expect(DateParser.folderDate("2024-05-25-han-river")?.instant.timeIntervalSince1970 == 1_716_595_200)
        #expect(DateParser.folderDate("2024-05-25") != nil)
        #expect(DateParser.folderDate("2024-05-251") == nil)
        #expect(DateParser.folderDate("trip") == nil)
    }
}

struct NaturalOrderTests {
    @Test("images sort as people count")
    func order() {
        let names = ["10.jpg", "2.jpg", "1.jpg", "b.png", "A.png", "01.jpg", "img-12.jpg", "img-3.jpg"]
        #expect(names.sorted(by: NaturalOrder.less) == ["01.jpg", "1.jpg", "2.jpg", "10.jpg", "A.png", "b.png", "img-3.jpg", "img-12.jpg"])
    }
}

struct SuggestionTests {
    @Test("did you mean")
    func closest() {
        #expect(Suggestion.closest(to: "locaton", in: ["location", "name"]) == "location")
        #expect(Suggestion.closest(to: "zzzzzz", in: ["location", "name"]) == nil)
    }
}
