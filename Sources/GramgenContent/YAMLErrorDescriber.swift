import Foundation
import GramgenCore
import Yams

/// Turns a Yams error into a diagnostic at the file's line, with a hint for the usual mistakes.
enum YAMLErrorDescriber {
    static func diagnostic(for error: Error, path: String, lineOffset: Int, lineMap: YAMLLineMap = .identity) -> Diagnostic {
        func location(_ mark: Mark) -> SourceLocation {
            let position = lineMap.position(line: mark.line, column: mark.column)
            return SourceLocation(path, line: position.line + lineOffset, column: position.column)
        }
        guard let yamlError = error as? YamlError else {
            return .error(SourceLocation(path), "cannot read the YAML: \(error)", hint: "check the file's syntax")
        }
        switch yamlError {
        case let .scanner(context, problem, mark, yaml), let .parser(context, problem, mark, yaml),
             let .composer(context, problem, mark, yaml):
            // A quote or bracket left open is found at the end of the file; point at where it opened.
            let at = problem.contains("end of stream") ? (context?.mark ?? mark) : mark
            let what = context.map { "\($0.text), \(problem)" } ?? problem
            return .error(location(at), "invalid YAML: \(what)", hint: hint(for: what, at: at, in: yaml))
        case let .duplicatedKeysInMapping(duplicates, context):
            return .error(location(context.mark), "the key '\(duplicates.joined(separator: "', '"))' appears twice",
                          hint: "keep one of them")
        case let .reader(problem, offset, value, yaml):
            var line = 1, column = 1, afterCR = false  // as editors count: LF, CRLF or CR end a line
            for scalar in yaml.prefix(offset ?? 0).unicodeScalars {
                if scalar == "\r" || (scalar == "\n" && !afterCR) { line += 1 }
                column = scalar == "\r" || scalar == "\n" ? 1 : column + 1
                afterCR = scalar == "\r"
            }
            let character = value >= 0 ? String(format: " (U+%04X)", value) : ""
            return .error(SourceLocation(path, line: line + lineOffset, column: column),
                          "cannot read the YAML: \(problem)\(character)",
                          hint: "remove the character; save the file as UTF-8 text without control characters")
        default:
            return .error(SourceLocation(path), "cannot read the YAML: \(yamlError)", hint: "check the file's syntax")
        }
    }

    private static func hint(for problem: String, at mark: Mark, in yaml: String) -> String {
        let line = yaml.split(separator: "\n", omittingEmptySubsequences: false)
            .dropFirst(max(0, mark.line - 1)).first.map(String.init) ?? ""
        if problem.contains("tab") || line.hasPrefix("\t") {
            return "indent with spaces, not tabs"
        }
        if problem.contains("quoted scalar") {
            return "close the quote, or escape a quote inside the text"
        }
        if problem.contains("mapping values") {
            return "put text that contains `: ` in quotes"
        }
        return "check the indentation and quoting on this line"
    }
}
