import GramgenCore
import Yams

/// Turns a Yams error into a diagnostic at the file's line, with a hint for the usual mistakes.
enum YAMLErrorDescriber {
    static func diagnostic(for error: Error, path: String, lineOffset: Int) -> Diagnostic {
        guard let yamlError = error as? YamlError else {
            return .error(SourceLocation(path), "cannot read the YAML: \(error)", hint: "check the file's syntax")
        }
        switch yamlError {
        case let .scanner(context, problem, mark, yaml), let .parser(context, problem, mark, yaml),
             let .composer(context, problem, mark, yaml):
            // A quote or bracket left open is found at the end of the file; point at where it opened.
            let at = problem.contains("end of stream") ? (context?.mark ?? mark) : mark
            let location = SourceLocation(path, line: at.line + lineOffset, column: at.column)
            let what = context.map { "\($0.text), \(problem)" } ?? problem
            return .error(location, "invalid YAML: \(what)", hint: hint(for: what, at: at, in: yaml))
        case let .duplicatedKeysInMapping(duplicates, context):
            let location = SourceLocation(path, line: context.mark.line + lineOffset, column: context.mark.column)
            return .error(location, "the key '\(duplicates.joined(separator: "', '"))' appears twice",
                          hint: "keep one of them")
        case let .reader(problem, _, _, _):
            return .error(SourceLocation(path, line: lineOffset + 1), "cannot read the YAML: \(problem)",
                          hint: "save the file as UTF-8 without control characters")
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
