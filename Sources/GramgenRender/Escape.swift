/// Escaping for text placed into HTML and XML outside templates (templates escape the same way).
enum Escape {
    static func html(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        HTMLBytes.appendEscaped(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
