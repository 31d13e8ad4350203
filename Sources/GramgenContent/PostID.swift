/// Post folder names become URLs, so they are restricted to characters that need no escaping.
enum PostID {
    static let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.".unicodeScalars)

    static func problem(with id: String) -> String? {
        if id.isEmpty || id.count > 100 { return "it must be 1 to 100 characters long" }
        if id.hasPrefix(".") { return "it may not start with '.'" }
        if let bad = id.unicodeScalars.first(where: { !allowed.contains($0) }) {
            return "it contains '\(bad.escaped(asASCII: false))'"
        }
        return nil
    }
}
