/// Where a problem is: a path relative to the site root, and a line and column when known.
public struct SourceLocation: Hashable, Sendable, Comparable, Codable {
    public var path: String
    public var line: Int?
    public var column: Int?

    public init(_ path: String, line: Int? = nil, column: Int? = nil) {
        self.path = path
        self.line = line
        self.column = column
    }

    public var description: String {
        var text = Diagnostic.visible(path)
        if let line { text += ":\(line)" }
        if let line = line, let column, line > 0 { text += ":\(column)" }
        return text
    }

    public static func < (a: SourceLocation, b: SourceLocation) -> Bool {
        (a.path, a.line ?? 0, a.column ?? 0) < (b.path, b.line ?? 0, b.column ?? 0)
    }
}

/// One problem found in a site, phrased so the user can act on it: what is wrong, and how to fix it.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible, Codable {
    public enum Severity: String, Sendable, Comparable, Codable {
        case warning, error
        public static func < (a: Severity, b: Severity) -> Bool { a == .warning && b == .error }
    }

    public var severity: Severity
    public var location: SourceLocation
    public var message: String
    public var hint: String?

    public init(_ severity: Severity, _ location: SourceLocation, _ message: String, hint: String? = nil) {
        self.severity = severity
        self.location = location
        self.message = message
        self.hint = hint
    }

    public static func error(_ location: SourceLocation, _ message: String, hint: String? = nil) -> Diagnostic {
        Diagnostic(.error, location, message, hint: hint)
    }

    public static func warning(_ location: SourceLocation, _ message: String, hint: String? = nil) -> Diagnostic {
        Diagnostic(.warning, location, message, hint: hint)
    }

    /// `path:line:col: error: what — how to fix`
    public var description: String {
        var text = "\(location.description): \(severity.rawValue): \(Self.visible(message))"
        if let hint { text += " — \(Self.visible(hint))" }
        return text
    }

    /// File names and quoted values come from the user: control characters (a newline, an ESC
    /// starting a terminal sequence) and bidirectional overrides are shown as `\u{1B}`, so a
    /// diagnostic is always one line that reads as it is stored.
    public static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isInvisible) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if isInvisible(scalar) { out += scalar.escaped(asASCII: true) } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}

/// Collects every problem of a build so all of them can be shown before exiting.
public struct Diagnostics: Sendable {
    public private(set) var items: [Diagnostic] = []

    public init() {}

    public mutating func append(_ diagnostic: Diagnostic) { items.append(diagnostic) }
    public mutating func append(contentsOf other: [Diagnostic]) { items.append(contentsOf: other) }
    public mutating func error(_ location: SourceLocation, _ message: String, hint: String? = nil) {
        items.append(.error(location, message, hint: hint))
    }
    public mutating func warning(_ location: SourceLocation, _ message: String, hint: String? = nil) {
        items.append(.warning(location, message, hint: hint))
    }

    public var errorCount: Int { items.filter { $0.severity == .error }.count }
    public var warningCount: Int { items.filter { $0.severity == .warning }.count }
    public var hasErrors: Bool { items.contains { $0.severity == .error } }

    /// Sorted by file, line and column so output is stable across runs.
    public var sorted: [Diagnostic] {
        items.sorted { ($0.location, $0.message) < ($1.location, $1.message) }
    }

    /// With `--strict`, every warning counts as an error.
    public func escalatingWarnings() -> Diagnostics {
        var copy = Diagnostics()
        copy.items = items.map { var d = $0; d.severity = .error; return d }
        return copy
    }
}
