import GramgenMarkdown

/// The users that exist in the tests' imaginary site.
let knownUsers: Set<String> = ["alfred", "batman", "selina", "bruce.wayne", "robin_"]

let renderer = MarkdownRenderer(isKnownHandle: { knownUsers.contains($0) })

/// Shows inputs with their invisible characters spelled out, so failing cases are easy to find.
func describe(_ markdown: String) -> String {
    markdown.unicodeScalars.map { scalar in
        switch scalar {
        case "\n": return "\\n"
        case "\t": return "\\t"
        case "\r": return "\\r"
        case _ where scalar.value < 0x20 || (0x300...0x36F).contains(scalar.value):
            return "\\u{\(String(scalar.value, radix: 16))}"
        default: return String(scalar)
        }
    }.joined()
}
