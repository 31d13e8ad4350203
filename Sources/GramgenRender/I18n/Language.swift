import GramgenCore

/// What the theme knows of a language beyond its texts: CLDR plural rules for whole numbers, the
/// long date pattern and month names, digits, compact counts and writing direction. One entry per
/// built-in catalogue; `Language.forTag` picks it from `site.yml`'s `language:`.
struct Language: Sendable {
    enum Code: String, CaseIterable, Sendable { case en, ko, ja, zh, es, fr, de, pt, ar }

    let code: Code

    /// The language of a BCP 47 tag (`ko-KR` → ko, `zh-Hant` → zh, `pt-BR` → pt), nil when gramgen
    /// has no catalogue for it.
    static func forTag(_ tag: String) -> Language? {
        let primary = tag.split(separator: "-").first.map { $0.lowercased() } ?? ""
        return Code(rawValue: primary).map(Language.init)
    }

    /// Arabic (and Hebrew and Persian, should they be added) is written right to left.
    var isRightToLeft: Bool { code == .ar }

    /// CLDR plural category of a whole number (plurals.xml, integer rules only: counts are whole).
    func plural(_ n: Int) -> PluralCategory {
        switch code {
        case .ko, .ja, .zh: return .other
        case .en, .de: return n == 1 ? .one : .other
        case .es: return n == 1 ? .one : (n != 0 && n % 1_000_000 == 0 ? .many : .other)
        case .fr, .pt: return n == 0 || n == 1 ? .one : (n % 1_000_000 == 0 ? .many : .other)
        case .ar:
            switch n {
            case 0: return .zero
            case 1: return .one
            case 2: return .two
            default:
                let rest = n % 100
                if (3...10).contains(rest) { return .few }
                if (11...99).contains(rest) { return .many }
                return .other
            }
        }
    }

    /// Digits as the language writes them (Arabic: ٠١٢٣٤٥٦٧٨٩), no grouping.
    func number(_ n: Int) -> String {
        guard code == .ar else { return String(n) }
        return String(String.UnicodeScalarView(String(n).unicodeScalars.map { scalar in
            ("0"..."9").contains(scalar) ? Unicode.Scalar(0x0660 + scalar.value - 0x30)! : scalar
        }))
    }

    /// A count as profiles show it: as is below 10,000, then short (`12.3K`, `1.2만`, `1,2 M`).
    func compact(_ n: Int) -> String {
        guard n >= 10_000 else { return number(n) }
        let (units, decimal): ([(Int, String)], String) = switch code {
        case .en: ([(1_000_000_000, "B"), (1_000_000, "M"), (1_000, "K")], ".")
        case .ko: ([(100_000_000, "억"), (10_000, "만")], ".")
        case .ja: ([(100_000_000, "億"), (10_000, "万")], ".")
        case .zh: ([(100_000_000, "亿"), (10_000, "万")], ".")
        case .es: ([(1_000_000, "\u{A0}M"), (1_000, "\u{A0}mil")], ",")
        case .pt: ([(1_000_000, "\u{A0}mi"), (1_000, "\u{A0}mil")], ",")
        case .fr: ([(1_000_000, "\u{A0}M"), (1_000, "\u{A0}k")], ",")
        case .de: ([(1_000_000, "\u{A0}Mio."), (1_000, "\u{A0}Tsd.")], ",")
        case .ar: ([(1_000_000, " مليون"), (1_000, " ألف")], "٫")
        }
        guard let (size, suffix) = units.first(where: { n >= $0.0 }) else { return number(n) }
        let tenths = n * 10 / size
        let text = tenths >= 1000 || tenths % 10 == 0 ? number(tenths / 10) : number(tenths / 10) + decimal + number(tenths % 10)
        return text + suffix
    }

    /// The long date of CLDR's `dateFormatLength type="long"`: "May 25, 2024", "2024년 5월 25일".
    func date(_ c: CivilTime) -> String {
        let day = number(c.day), year = number(c.year)
        switch code {
        case .en: return "\(Self.months[.en]![c.month - 1]) \(day), \(year)"
        case .ko: return "\(year)년 \(number(c.month))월 \(day)일"
        case .ja, .zh: return "\(year)年\(number(c.month))月\(day)日"
        case .es, .pt: return "\(day) de \(Self.months[code]![c.month - 1]) de \(year)"
        case .fr, .ar: return "\(day) \(Self.months[code]![c.month - 1]) \(year)"
        case .de: return "\(day). \(Self.months[.de]![c.month - 1]) \(year)"
        }
    }

    static let months: [Code: [String]] = [
        .en: ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"],
        .es: ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"],
        .pt: ["janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro", "novembro", "dezembro"],
        .fr: ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"],
        .de: ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"],
        .ar: ["يناير", "فبراير", "مارس", "أبريل", "مايو", "يونيو", "يوليو", "أغسطس", "سبتمبر", "أكتوبر", "نوفمبر", "ديسمبر"],
    ]
}
