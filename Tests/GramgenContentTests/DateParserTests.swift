import Foundation
@testable import GramgenCore
@testable import GramgenContent
import Testing

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

/// The arithmetic behind `DateParser` gives the instants Foundation's Gregorian calendar gives.
struct DateArithmeticTests {
    @Test("every day from 1600 to 2100, and a sample of later ones, as the calendar counts them")
    func sameAsCalendar() {
        var years = Array(1600...2100)
        years += stride(from: 2101, through: 9999, by: 11)
        for year in years {
            for month in 1...12 {
                for day in 1...31 {
                    let calendar = DateParser.calendarDate(year: year, month: month, day: day, hour: 13, minute: 7,
                                                           second: 59, offset: -3600)
                    let text = String(format: "%04d-%02d-%02dT13:07:59-01:00", year, month, day)
                    let parsed = DateParser.parse(text)
                    #expect(parsed == calendar, "\(text)")
                    if parsed != calendar { return }
                }
            }
        }
    }

    @Test("leap seconds, early years and odd spacing go through the calendar", arguments: [
        "2016-12-31T23:59:60Z", "1582-10-10", "1599-02-29", "1600-02-29", "1700-02-29", "2000-02-29", "2100-02-29",
        " 2024-05-25", "2024-05-25\t", "\u{3000}2024-05-25", "2024-05-25\u{A0}", "1000-01-01", "9999-12-31T23:59:59+14:00",
    ])
    func edges(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let expected = DateParser.parse(trimmed)
        #expect(DateParser.parse(text) == expected)
        if let expected, trimmed.count >= 10 {
            let year = Int(trimmed.prefix(4))!, month = Int(trimmed.dropFirst(5).prefix(2))!, day = Int(trimmed.dropFirst(8).prefix(2))!
            if trimmed.count == 10 {
                #expect(DateParser.calendarDate(year: year, month: month, day: day, hour: 0, minute: 0, second: 0, offset: 0) == expected)
            }
        }
    }
}

struct ImageFileNameTests {
    @Test("path extensions as NSString finds them")
    func pathExtensions() {
        var names = ["1.jpg", "a.b.JPG", "a", "a.", ".jpg", "..jpg", "a..jpg", "a b.jpg", "a.j pg", "x.tar.gz", "-.jpg",
                     "_a.png", "a.ü", "ü.jpg", "a.jpg ", "a/b.jpg", "a.jpg/", "~", "", ".", "..", "a.%20", "IMG_0001.HEIC"]
        var generator = SeededRandom.forTest("DateParserTests.pathExtensions")
        // No "/": Foundation's NSString.pathExtension can trap on some such names, and image names never have one.
        let alphabet: [Character] = ["a", "Z", "1", ".", ".", "-", "_", " ", "é", "~"]
        for _ in 0..<3000 {
            names.append(String((0..<Int.random(in: 0...8, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }))
        }
        for name in names {
            #expect(ImageFiles.pathExtension(name) == (name as NSString).pathExtension, "\(name)")
        }
    }
}
