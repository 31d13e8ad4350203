/// Double-quoted YAML scalars for the front matter gramgen writes (import, init, new). Always quoting means a
/// caption-derived value such as `no`, `12:30` or `- hi` can never turn into a boolean, a
/// number or a list when gramgen reads the file back.
public enum YAMLQuote {
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case "\u{2028}": out += "\\L"
            case "\u{2029}": out += "\\P"
            case "\u{85}": out += "\\N"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value) || scalar == "\u{FEFF}" {
                    out += "\\u" + Hex.string(UInt64(scalar.value), digits: 4, uppercase: true)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
