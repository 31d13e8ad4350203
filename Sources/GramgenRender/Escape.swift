/// Escaping for text placed into HTML and XML outside templates (templates escape by themselves).
enum Escape {
    static func html(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default:
                // Characters XML 1.0 forbids are dropped, so feeds stay well-formed.
                if scalar.value < 0x20 && scalar != "\n" && scalar != "\t" && scalar != "\r" { continue }
                if scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
