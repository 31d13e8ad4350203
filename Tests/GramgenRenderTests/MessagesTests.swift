import Foundation
import GramgenCore
import Testing
@testable import GramgenRender

/// The theme's texts in every built-in language: catalogues, CLDR plurals, dates and numbers.
struct MessagesTests {
    static func messages(_ language: String, overrides: [MessageOverride] = []) -> Messages {
        var config = SiteConfig()
        config.language = language
        config.messageOverrides = overrides
        config.messageOverridesFile = overrides.isEmpty ? nil : "content/i18n/\(language).yml"
        return Messages(config: config)
    }

    @Test("RFC 3339 in the author's offset, matching Foundation's formatter", arguments: [
        (0.0, 0), (1_716_615_000, 32400), (1_716_615_000, -14400), (951_782_400, 0), (-86_401, 3600),
        (4_102_444_799, 0), (1_709_164_800, 19800),
    ])
    func rfc3339(_ seconds: Double, _ offset: Int) {
        let date = PostDate(instant: Date(timeIntervalSince1970: seconds), utcOffsetSeconds: offset)
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(secondsFromGMT: offset)
        #expect(date.rfc3339 == formatter.string(from: date.instant))
    }

    @Test("RFC 3339 and the day of random instants and offsets, years 1700 to 9999: as Foundation's formatter writes them")
    func rfc3339Random() {
        var random = SeededRandom.forTest("MessagesTests.rfc3339Random")
        let formatter = ISO8601DateFormatter()
        for _ in 0..<2_000 {
            let seconds = Double(Int64.random(in: -8_500_000_000...253_000_000_000, using: &random))
            let offset = Int.random(in: -14 * 60...14 * 60, using: &random) * 60
            let date = PostDate(instant: Date(timeIntervalSince1970: seconds), utcOffsetSeconds: offset)
            formatter.timeZone = TimeZone(secondsFromGMT: offset)
            let expected = formatter.string(from: date.instant)
            #expect(date.rfc3339 == expected, "seed \(random.seed)")
            let c = CivilTime(date)  // (Foundation's calendar is Julian before 1582; gramgen's Gregorian throughout)
            #expect(date.day == "\(PostDate.pad(c.year, 4))-\(PostDate.pad(c.month))-\(PostDate.pad(c.day))", "seed \(random.seed)")
        }
        // Years with fewer than four digits, padded: against the text made of `PostDate.pad`.
        for _ in 0..<500 {
            let seconds = Double(Int64.random(in: -62_000_000_000 ... -31_000_000_000, using: &random))
            let offset = Int.random(in: -14 * 60...14 * 60, using: &random) * 60
            let date = PostDate(instant: Date(timeIntervalSince1970: seconds), utcOffsetSeconds: offset)
            let c = CivilTime(date), minutes = abs(offset) / 60
            let zone = offset == 0 ? "Z" : (offset < 0 ? "-" : "+") + "\(PostDate.pad(minutes / 60)):\(PostDate.pad(minutes % 60))"
            #expect(date.rfc3339 == "\(PostDate.pad(c.year, 4))-\(PostDate.pad(c.month))-\(PostDate.pad(c.day))T"
                + "\(PostDate.pad(c.hour)):\(PostDate.pad(c.minute)):\(PostDate.pad(c.second))" + zone, "seed \(random.seed)")
        }
    }

    @Test("the long date as CLDR writes it in each language", arguments: [
        ("en", "May 25, 2024"), ("ko", "2024년 5월 25일"), ("ja", "2024年5月25日"), ("zh-Hans", "2024年5月25日"),
        ("es", "25 de mayo de 2024"), ("fr", "25 mai 2024"), ("de", "25. Mai 2024"), ("pt-BR", "25 de maio de 2024"),
        ("ar", "٢٥ مايو ٢٠٢٤"), ("xx", "May 25, 2024"),
    ])
    func longDate(_ language: String, _ expected: String) {
        let date = PostDate(instant: Date(timeIntervalSince1970: 1_716_615_000), utcOffsetSeconds: 32400)
        #expect(Self.messages(language).date(date) == expected)
    }

    @Test("CLDR plural categories of whole numbers")
    func plurals() {
        func categories(_ code: Language.Code, _ numbers: [Int]) -> [PluralCategory] { numbers.map(Language(code: code).plural) }
        #expect(categories(.en, [0, 1, 2, 11]) == [.other, .one, .other, .other])
        #expect(categories(.ko, [0, 1, 2]) == [.other, .other, .other])
        #expect(categories(.fr, [0, 1, 2, 1_000_000]) == [.one, .one, .other, .many])
        #expect(categories(.pt, [0, 1, 2]) == [.one, .one, .other])
        #expect(categories(.es, [0, 1, 2, 2_000_000]) == [.other, .one, .other, .many])
        #expect(categories(.ar, [0, 1, 2, 3, 10, 11, 99, 100, 102, 103, 111]) ==
            [.zero, .one, .two, .few, .few, .many, .many, .other, .other, .few, .many])
    }

    @Test("counts in each language's forms and digits")
    func counts() {
        #expect(Self.messages("en").count("posts_count", 1) == "1 post")
        #expect(Self.messages("en").count("posts_count", 3) == "3 posts")
        #expect(Self.messages("ko").count("posts_count", 12) == "게시물 12개")
        #expect(Self.messages("ar").count("posts_count", 2) == "منشوران")
        #expect(Self.messages("ar").count("posts_count", 5) == "٥ منشورات")
        #expect(Self.messages("ar").count("posts_count", 11) == "١١ منشورًا")
        #expect(Self.messages("ko").strongCount("profile_followers", 12_345) == "팔로워 <strong>1.2만</strong>")
        #expect(Self.messages("en").strongCount("profile_followers", 12_345) == "<strong>12.3K</strong> followers")
        #expect(Self.messages("en").strongCount("profile_posts", 1) == "<strong>1</strong> post")
        #expect(Self.messages("ja").language.compact(123_456_789) == "1.2億")
        #expect(Self.messages("ar").language.compact(12_300) == "١٢٫٣ ألف")
        #expect(Self.messages("de").language.compact(2_000_000) == "2\u{A0}Mio.")
    }

    @Test("HTML texts escape their own words and keep the values' markup")
    func html() {
        let link = "<a href=\"x\">ann</a>"
        #expect(Self.messages("en").html("liked_by", ["user": link]) == "Liked by \(link)")
        #expect(Self.messages("ko").html("liked_by_others", ["user": link, "others": "<a>2명</a>"]) == "\(link)님 외 <a>2명</a>이 좋아합니다")
        let tricky = Self.messages("en", overrides: [MessageOverride(key: "liked_by", message: .text("<b>{user}</b> & co"), line: 1, column: 1)])
        #expect(tricky.html("liked_by", ["user": link]) == "&lt;b&gt;\(link)&lt;/b&gt; &amp; co")
    }

    @Test("every catalogue has every key with the reference's placeholders, and only known plural forms")
    func catalogues() {
        for code in Language.Code.allCases {
            let catalogue = Catalogue.messages(for: code)
            #expect(Set(catalogue.keys) == Set(Catalogue.en.keys), "\(code)")
            for (key, message) in catalogue {
                let expected = Catalogue.en[key]!.placeholders.subtracting(["count"])
                #expect(message.placeholders.subtracting(["count"]) == expected, "\(code) \(key)")
                if case .plural(let forms) = message { #expect(forms[.other] != nil, "\(code) \(key)") }
            }
        }
    }

    @Test("a site's own texts replace the catalogue's; unknown keys and placeholders are warnings with the line")
    func overrides() {
        var config = SiteConfig()
        config.language = "ko"
        config.messageOverridesFile = "content/i18n/ko.yml"
        config.messageOverrides = [
            MessageOverride(key: "nav_home", message: .text("처음"), line: 2, column: 1),
            MessageOverride(key: "nav_hom", message: .text("x"), line: 3, column: 1),
            MessageOverride(key: "liked_by", message: .text("좋아요: {usr}"), line: 4, column: 1),
        ]
        #expect(Messages(config: config).text("nav_home") == "처음")
        #expect(Messages.problems(in: config).map(\.description) == [
            "content/i18n/ko.yml:3:1: warning: 'nav_hom' is not a text of the theme, so it is not used — check the spelling; the README's \"Languages\" lists every key",
            "content/i18n/ko.yml:4:1: warning: 'liked_by' leaves out {user}, so that part is not shown — put {user} where it belongs in the sentence",
            "content/i18n/ko.yml:4:1: warning: 'liked_by' has {usr}, which the theme does not fill in — use only {user}",
        ])
        var unknown = SiteConfig()
        unknown.language = "tlh"
        #expect(Messages.problems(in: unknown).map(\.description).first?.hasPrefix(
            "content/site.yml: warning: gramgen has no texts in 'tlh', so the theme speaks English") == true)
        #expect(Messages(config: unknown).text("nav_home") == "Home")
    }
}

/// `Messages.fill` against the plain reading of what it does, on texts made of random pieces.
struct MessagesFillTests {
    /// The same, done one piece at a time on `Substring`s.
    static func reference(_ text: String, _ values: KeyValuePairs<String, String>, count: String?, escape: Bool) -> String {
        var out = "", rest = Substring(text)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            out += escape ? Escape.html(String(rest[..<open])) : String(rest[..<open])
            let name = String(rest[rest.index(after: open)..<close])
            if let count, name == "count" {
                out += count
            } else if let value = values.first(where: { $0.key == name })?.value {
                out += value
            } else {
                out += rest[open...close]
            }
            rest = rest[rest.index(after: close)...]
        }
        return out + (escape ? Escape.html(String(rest)) : String(rest))
    }

    @Test("placeholders filled, the rest escaped or not, as the plain reading does it")
    func randomTexts() {
        var random = SeededRandom.forTest("MessagesFillTests.randomTexts")
        let pieces = ["{user}", "{count}", "{other}", "{", "}", "{{user}}", "a", " & ", "<b>", "\"", "é", "日本", "📷", "{ user }", "{}", "\u{1}"]
        let values: KeyValuePairs<String, String> = ["user": "<a href=\"/ann/\">ann</a>", "other": "x & y"]
        for _ in 0..<500 {
            let text = (0..<Int.random(in: 0...10, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            for escape in [false, true] {
                for count in [nil, "<strong>12</strong>"] {
                    #expect(Messages.fill(text, values, count: count, escape: escape) == Self.reference(text, values, count: count, escape: escape),
                            "\(text.debugDescription) seed \(random.seed)")
                }
            }
        }
    }
}
