import Foundation
import GramgenCore
import Yams

/// Typed, located access to a front-matter mapping. Each accessor reports a wrong type at the value's
/// line and returns nil, so one bad key never hides the others.
struct FrontMatterFields {
    let mapping: Node.Mapping?
    let path: String
    /// Lines before the YAML in the file (the opening `---`).
    let lineOffset: Int
    /// libyaml's lines and columns → the file's.
    var lineMap = YAMLLineMap.identity
    /// The string of each key of `mapping` in order (nil when a key is not a scalar), so finding a
    /// key compares strings instead of copying every pair of nodes.
    private let keyStrings: [String?]

    init(mapping: Node.Mapping?, path: String, lineOffset: Int, lineMap: YAMLLineMap = .identity) {
        self.mapping = mapping
        self.path = path
        self.lineOffset = lineOffset
        self.lineMap = lineMap
        keyStrings = mapping?.keys.map(\.scalar?.string) ?? []
    }

    func location(of node: Node?) -> SourceLocation {
        guard let mark = node?.mark else { return SourceLocation(path, line: lineOffset + 1) }
        let position = lineMap.position(line: mark.line, column: mark.column)
        return SourceLocation(path, line: position.line + lineOffset, column: position.column)
    }

    /// The fields of a mapping inside this one (an image, a comment), located the same way.
    func nested(_ mapping: Node.Mapping) -> FrontMatterFields {
        FrontMatterFields(mapping: mapping, path: path, lineOffset: lineOffset, lineMap: lineMap)
    }

    /// The value node for a key, if present and not null.
    func node(_ key: String) -> Node? {
        guard let value = lookUp(key) else { return nil }
        if case .scalar(let scalar) = value, scalar.style == .plain,
           ["", "~", "null", "Null", "NULL"].contains(scalar.string) {
            return nil
        }
        return value
    }

    /// `mapping[key]` without its cost. Yams compares every key with a new `Node(key)`, by string
    /// and resolved tag, and resolving a tag runs the resolver's regular expressions. Keys with
    /// another string cannot match, so they are skipped. A key with the same string and a tag not
    /// resolved yet (`description` empty: `.implicit`) resolves as `Node(key)` does — same string,
    /// same (default) resolver — so it matches. Any other is compared with a node whose tag was
    /// resolved once (`KeyNodes`). Like the subscript, the last match wins.
    private func lookUp(_ key: String) -> Node? {
        guard let mapping else { return nil }
        for index in keyStrings.indices.reversed() where keyStrings[index] == key {
            let (candidate, value) = mapping[mapping.index(mapping.startIndex, offsetBy: index)]
            guard case .scalar(let scalar) = candidate else { continue }
            if scalar.tag.description.isEmpty || candidate == KeyNodes.node(for: key) { return value }
        }
        return nil
    }

    /// Warns about keys this file does not use, with the closest known key as a suggestion.
    func warnUnknownKeys(known: [String], diagnostics: inout Diagnostics) {
        for key in mapping.map({ Array($0.keys) }) ?? [] {
            let name = key.string ?? ""
            guard !known.contains(name) else { continue }
            let hint = Suggestion.closest(to: name, in: known).map { "did you mean '\($0)'?" }
                ?? "known keys: \(known.joined(separator: ", "))"
            diagnostics.warning(location(of: key), "unknown key '\(name)'", hint: hint)
        }
    }

    func string(_ key: String, diagnostics: inout Diagnostics) -> String? {
        guard let value = node(key) else { return nil }
        guard case .scalar(let scalar) = value else {
            diagnostics.error(location(of: value), "'\(key)' must be text", hint: "write `\(key): some text`")
            return nil
        }
        return scalar.string
    }

    func bool(_ key: String, diagnostics: inout Diagnostics) -> Bool? {
        guard let value = node(key) else { return nil }
        guard let bool = value.bool else {
            diagnostics.error(location(of: value), "'\(key)' must be true or false",
                              hint: "write `\(key): true` or `\(key): false`")
            return nil
        }
        return bool
    }

    func int(_ key: String, in range: ClosedRange<Int>, diagnostics: inout Diagnostics) -> Int? {
        guard let value = node(key) else { return nil }
        guard let int = value.int, range.contains(int) else {
            diagnostics.error(location(of: value), "'\(key)' must be a whole number from \(range.lowerBound) to \(range.upperBound)",
                              hint: "write for example `\(key): \(range.lowerBound)`")
            return nil
        }
        return int
    }

    /// A list of plain strings; `[a, b]` or one item per line.
    func stringList(_ key: String, diagnostics: inout Diagnostics) -> [(String, SourceLocation)]? {
        guard let value = node(key) else { return nil }
        guard let sequence = value.sequence else {
            diagnostics.error(location(of: value), "'\(key)' must be a list",
                              hint: "write `\(key): [\(value.string ?? "a"), …]`")
            return nil
        }
        var items: [(String, SourceLocation)] = []
        for item in sequence {
            guard case .scalar(let scalar) = item else {
                diagnostics.error(location(of: item), "each item of '\(key)' must be text", hint: "write `- text`")
                continue
            }
            items.append((scalar.string, location(of: item)))
        }
        return items
    }
}

/// The nodes `Node.Mapping[key]` builds to find a key, each built once with its tag resolved, so
/// comparing with one costs no regular expression. A resolved `Tag` is never written again, so
/// the shared nodes can be read from several threads.
enum KeyNodes {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var nodes: [String: Node] = [:]

    /// The subscript builds `Node(key, mapping.tag.copy(with: .implicit))`: the mapping's resolver,
    /// which for front matter and site.yml is always the default one (`Yams.compose(… .default …)`).
    static func node(for key: String) -> Node {
        lock.lock()
        defer { lock.unlock() }
        if let node = nodes[key] { return node }
        let node = Node(key, Tag(.implicit))
        _ = node.tag  // resolves and keeps the tag's name
        nodes[key] = node
        return node
    }
}

/// "Did you mean": the closest known word within a small edit distance.
enum Suggestion {
    static func closest(to word: String, in candidates: [String]) -> String? {
        let scored = candidates.map { ($0, distance(word.lowercased(), $0)) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(2, word.count / 3) else { return nil }
        return best.0
    }

    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
