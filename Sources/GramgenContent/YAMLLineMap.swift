/// Turns libyaml's positions into the file's. YAML 1.1 ends a line at U+0085, U+2028 and U+2029
/// too, editors do not: `a: x\u{85}y` is one line in an editor and two for libyaml, so every
/// mark after it would name a line the file does not have (found by the fuzzer).
struct YAMLLineMap: Sendable {
    /// For each libyaml line (index = line − 1): the file line it is on (0-based, within the YAML)
    /// and the file column just before it starts.
    private var starts: [(line: Int, column: Int)] = [(0, 0)]
    /// Lone CRs in the YAML: a line end for editors and libyaml, but not for `split("\n")`.
    private(set) var loneCarriageReturns = 0

    static let identity = YAMLLineMap()

    private init() {}

    init(_ yaml: String) {
        let scalars = Array(yaml.unicodeScalars)
        var line = 0, column = 0, i = 0
        while i < scalars.count {
            let scalar = scalars[i]
            i += 1
            switch scalar {
            case "\r", "\n":
                if scalar == "\r" {
                    if i < scalars.count, scalars[i] == "\n" { i += 1 } else { loneCarriageReturns += 1 }
                }
                line += 1
                column = 0
                starts.append((line, 0))
            case "\u{85}", "\u{2028}", "\u{2029}":
                column += 1
                starts.append((line, column))
            default:
                column += 1
            }
        }
    }

    /// The file position (1-based line within the YAML, 1-based column) of a libyaml mark.
    func position(line: Int, column: Int) -> (line: Int, column: Int) {
        guard line >= 1 else { return (line, column) }
        guard line <= starts.count else {  // past the last line: the end of the stream
            return ((starts.last?.line ?? 0) + 1 + line - starts.count, column)
        }
        let start = starts[line - 1]
        return (start.line + 1, start.column + column)
    }
}
