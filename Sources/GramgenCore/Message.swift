/// CLDR plural categories: which form of a message a count takes (`one` like, `other` likes).
public enum PluralCategory: String, CaseIterable, Sendable {
    case zero, one, two, few, many, other
}

/// One text of the theme in one language: plain, or one form per plural category. `{name}`
/// stands for a value filled in when the text is used (`{count}` for the count).
public enum Message: Sendable, Hashable {
    case text(String)
    case plural([PluralCategory: String])

    /// The `{name}` placeholders the message uses, in every form.
    public var placeholders: Set<String> {
        switch self {
        case .text(let text): return Self.placeholders(in: text)
        case .plural(let forms): return forms.values.reduce(into: Set()) { $0.formUnion(Self.placeholders(in: $1)) }
        }
    }

    static func placeholders(in text: String) -> Set<String> {
        var names = Set<String>()
        var rest = text[...]
        while let open = rest.firstIndex(of: "{") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "}") else { break }
            names.insert(String(after[..<close]))
            rest = after[after.index(after: close)...]
        }
        return names
    }
}

/// A text a site gives in `content/i18n/<language>.yml`, with where it was written.
public struct MessageOverride: Sendable, Hashable {
    public var key: String
    public var message: Message
    public var line: Int
    public var column: Int

    public init(key: String, message: Message, line: Int, column: Int) {
        self.key = key
        self.message = message
        self.line = line
        self.column = column
    }
}
