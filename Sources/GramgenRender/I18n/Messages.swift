import GramgenCore

/// The built-in catalogues, one per language (`Catalogue+<code>.swift`), keyed by meaning.
enum Catalogue {
    static func messages(for code: Language.Code) -> [String: Message] {
        switch code {
        case .en: en
        case .ko: ko
        case .ja: ja
        case .zh: zh
        case .es: es
        case .fr: fr
        case .de: de
        case .pt: pt
        case .ar: ar
        }
    }
}

/// Every text the theme prints, in the site's language: its catalogue, then the site's own texts
/// (`content/i18n/<language>.yml`) over it, and English for anything left out. Also the language's
/// dates and numbers. Made once per build; lookups are dictionary reads.
struct Messages: Sendable {
    let language: Language
    private let table: [String: Message]
    /// Each text without values, filled once: a page's template asks for some thirty (`t.…`,
    /// `MessagesView`), each looked up and filled at every page, 2% of a pages-only build.
    private(set) var plainTexts: [String: String] = [:]

    init(config: SiteConfig) {
        language = Language.forTag(config.language) ?? Language(code: .en)
        var table = Catalogue.en
        if language.code != .en { table.merge(Catalogue.messages(for: language.code)) { _, own in own } }
        for override in config.messageOverrides where Catalogue.en[override.key] != nil {
            table[override.key] = override.message
        }
        self.table = table
        var plainTexts: [String: String] = [:]
        for key in table.keys { plainTexts[key] = fill(form(key, count: nil), [:], escape: false) }
        self.plainTexts = plainTexts
    }

    var direction: String { language.isRightToLeft ? "rtl" : "ltr" }

    /// The text `key` with its placeholders filled in.
    func text(_ key: String, _ values: KeyValuePairs<String, String> = [:]) -> String {
        if values.isEmpty, let text = plainTexts[key] { return text }
        return fill(form(key, count: nil), values, escape: false)
    }

    /// The form of `key` for `count`, with `{count}` in the language's digits.
    func count(_ key: String, _ count: Int, _ values: KeyValuePairs<String, String> = [:]) -> String {
        fill(form(key, count: count), values, count: language.number(count), escape: false)
    }

    /// The text as HTML: its own words escaped, the values (links, markup) put in as they are.
    func html(_ key: String, _ values: KeyValuePairs<String, String>) -> String {
        fill(form(key, count: nil), values, escape: true)
    }

    /// The form of `key` for `count` as HTML, the count wrapped in `<strong>` (profile counts).
    func strongCount(_ key: String, _ count: Int) -> String {
        fill(form(key, count: count), [:], count: "<strong>\(language.compact(count))</strong>", escape: true)
    }

    /// Texts for a script, as compact JSON: `{"key":"text","plural":{"one":"…","other":"…"}}`.
    /// `{count}` and the other placeholders are the script's to fill in.
    func json(_ keys: [String]) -> String {
        var out: [UInt8] = [UInt8(ascii: "{")]
        for (index, key) in keys.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            JSONWriter.writeString(key, into: &out)
            out.append(UInt8(ascii: ":"))
            switch table[key] ?? .text(key) {
            case .text(let text): JSONWriter.writeString(text, into: &out)
            case .plural(let forms):
                out.append(UInt8(ascii: "{"))
                for (n, category) in PluralCategory.allCases.filter({ forms[$0] != nil }).enumerated() {
                    if n > 0 { out.append(UInt8(ascii: ",")) }
                    JSONWriter.writeString(category.rawValue, into: &out)
                    out.append(UInt8(ascii: ":"))
                    JSONWriter.writeString(forms[category]!, into: &out)
                }
                out.append(UInt8(ascii: "}"))
            }
        }
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }

    /// " · page 2" after a title, nothing for the first page.
    func pageSuffix(_ number: Int) -> String {
        number == 1 ? "" : " · " + text("page_suffix", ["number": language.number(number)])
    }

    func date(_ date: PostDate) -> String { language.date(CivilTime(date)) }

    private func form(_ key: String, count: Int?) -> String {
        switch table[key] {
        case .text(let text)?: return text
        case .plural(let forms)?:
            let category = count.map(language.plural) ?? .other
            return forms[category] ?? forms[.other] ?? ""
        case nil: return key
        }
    }

    private func fill(_ text: String, _ values: KeyValuePairs<String, String>, count: String? = nil, escape: Bool) -> String {
        Self.fill(text, values, count: count, escape: escape)
    }

    /// `text` with each `{name}` of `values` (and `{count}`) replaced by its value, as it is; the
    /// rest of the text escaped as HTML with `escape` (a brace pair that names no value stays as it is).
    static func fill(_ text: String, _ values: KeyValuePairs<String, String>, count: String?, escape: Bool) -> String {
        // On the text's UTF-8 bytes in place (braces are ASCII, so every cut is between
        // characters), the result made as bytes and turned into a string once: filled for every
        // card of every page (eight times a post in a pages-only build), it took 4% of that build
        // through `Character` search, then 5% through `String.UTF8View`'s index by index
        // (`firstIndex(of:)`) and a string made for each piece.
        return text.withUTF8Bytes { Self.fill($0, values, count: count, escape: escape) }
    }

    private static func fill(_ bytes: UnsafeBufferPointer<UInt8>, _ values: KeyValuePairs<String, String>, count: String?,
                             escape: Bool) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 32)
        func put(_ range: Range<Int>, escaped: Bool) {
            let part = UnsafeBufferPointer(rebasing: bytes[range])
            if escaped { HTMLBytes.appendEscaped(part, to: &out) } else { out.append(contentsOf: part) }
        }
        func put(_ value: String) {
            if let done: Void = value.utf8.withContiguousStorageIfAvailable({ out.append(contentsOf: $0) }) { return done }
            out.append(contentsOf: value.utf8)
        }
        var literal = 0
        var at = 0
        while let open = bytes[at...].firstIndex(of: UInt8(ascii: "{")),
              let close = bytes[(open + 1)...].firstIndex(of: UInt8(ascii: "}")) {
            put(literal..<open, escaped: escape)
            let name = UnsafeBufferPointer(rebasing: bytes[(open + 1)..<close])
            if let count, name.elementsEqual("count".utf8) {
                put(count)
            } else if let value = values.first(where: { $0.key.utf8.elementsEqual(name) })?.value {
                put(value)
            } else {
                // Not a placeholder of this text: as it is.
                put(open..<(close + 1), escaped: false)
            }
            literal = close + 1
            at = literal
        }
        put(literal..<bytes.count, escaped: escape)
        return String(decoding: out, as: UTF8.self)
    }

    /// What is wrong with the site's language and its own texts: warnings with file and line.
    static func problems(in config: SiteConfig) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        if Language.forTag(config.language) == nil {
            let known = Language.Code.allCases.map(\.rawValue).joined(separator: ", ")
            problems.append(.warning(SourceLocation("content/site.yml"),
                                     "gramgen has no texts in '\(config.language)', so the theme speaks English (pages keep lang=\"\(config.language)\")",
                                     hint: "use one of \(known), or give every text in content/i18n/\(config.language).yml (README, \"Languages\")"))
        }
        guard let file = config.messageOverridesFile else { return problems }
        for override in config.messageOverrides {
            let location = SourceLocation(file, line: override.line, column: override.column)
            guard let reference = Catalogue.en[override.key] else {
                problems.append(.warning(location, "'\(override.key)' is not a text of the theme, so it is not used",
                                         hint: "check the spelling; the README's \"Languages\" lists every key"))
                continue
            }
            let missing = reference.placeholders.subtracting(override.message.placeholders).subtracting(["count"])
            if !missing.isEmpty {
                problems.append(.warning(location, "'\(override.key)' leaves out \(missing.sorted().map { "{\($0)}" }.joined(separator: ", ")), so that part is not shown",
                                         hint: "put \(missing.sorted().map { "{\($0)}" }.joined(separator: " and ")) where it belongs in the sentence"))
            }
            let unknown = override.message.placeholders.subtracting(reference.placeholders).subtracting(["count"])
            if !unknown.isEmpty {
                problems.append(.warning(location, "'\(override.key)' has \(unknown.sorted().map { "{\($0)}" }.joined(separator: ", ")), which the theme does not fill in",
                                         hint: "use only \(reference.placeholders.sorted().map { "{\($0)}" }.joined(separator: ", "))"))
            }
        }
        return problems
    }
}

/// `{{t.key}}` in a template: the page's text for `key`. A class made once per build for each
/// thread drawing pages (`SiteRenderer.Frame`) and shared by its pages: a page reads some thirty
/// texts, and the struct (the texts' tables, the language) was copied into a value of its own at
/// each (2% of a pages-only build's samples).
final class MessagesView: TemplateObject, @unchecked Sendable {
    let messages: Messages
    /// Each text without values, by its name's number (`FieldName`), as templates look it up.
    private let byNumber: [String?]

    init(messages: Messages) {
        self.messages = messages
        var byNumber: [String?] = []
        for (key, text) in messages.plainTexts {
            let number = FieldName(key).number
            if number >= byNumber.count { byNumber += Array(repeating: nil, count: number + 1 - byNumber.count) }
            // Its own copy of each text (`SiteRenderer.Frame`: each thread drawing pages has its view).
            byNumber[number] = SiteRenderer.Frame.own(text)
        }
        self.byNumber = byNumber
    }

    func field(_ name: String) -> TemplateValue { .text(messages.text(name)) }

    func field(_ name: FieldName) -> TemplateValue {
        if name.number < byNumber.count, let text = byNumber[name.number] { return .text(text) }
        return field(name.text)
    }
}
