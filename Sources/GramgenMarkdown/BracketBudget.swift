/// cmark-gfm 0.29 (Debian 12's) matches brackets in time that grows with the square of the open
/// ones: `![[]()` repeated takes 12 ms for 4,000 brackets, 154 ms for 16,000, 5 s for 43,000 and
/// minutes for a 1 MB caption (fixed upstream in cmark 0.30.3, not in this library). No caption a
/// person writes has thousands of `[`; past the budget every `[` is escaped, so the caption shows
/// as its text with no links or images, in linear time. Inside code the escape shows as `\[`.
enum BracketBudget {
    static let maximumOpenBrackets = 4_096

    static func defused(_ markdown: String) -> String {
        var count = 0
        for byte in markdown.utf8 where byte == UInt8(ascii: "[") {
            count += 1
        }
        guard count > maximumOpenBrackets else { return markdown }
        var result = ""
        result.reserveCapacity(markdown.utf8.count + count)
        for scalar in markdown.unicodeScalars {
            if scalar == "[" { result += "\\" }
            result.unicodeScalars.append(scalar)
        }
        return result
    }
}
