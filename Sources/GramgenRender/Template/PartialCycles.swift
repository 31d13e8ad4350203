/// Finds templates that include themselves through partials (`tile → card → tile`). The theme's
/// data is never recursive, so such a chain only repeats the same output until the renderer's
/// depth limit, and a partial that includes itself twice doubles it at every level: 2^64 times.
/// A cycle is reported at load time with the chain, instead of being drawn.
enum PartialCycles {
    /// Each cycle once, as the chain of names from its first template back to it.
    static func find(in templates: [String: CompiledTemplate]) -> [[String]] {
        let edges = templates.mapValues { partials(in: $0.nodes) }
        var cycles: [[String]] = []
        var done: Set<String> = []
        for start in templates.keys.sorted() where !done.contains(start) {
            var path: [String] = []
            visit(start, edges: edges, path: &path, done: &done, cycles: &cycles)
        }
        return cycles
    }

    private static func visit(_ name: String, edges: [String: [String]], path: inout [String],
                              done: inout Set<String>, cycles: inout [[String]]) {
        if let index = path.firstIndex(of: name) {
            cycles.append(Array(path[index...]) + [name])
            return
        }
        guard !done.contains(name), let next = edges[name] else { return }
        path.append(name)
        for partial in next { visit(partial, edges: edges, path: &path, done: &done, cycles: &cycles) }
        path.removeLast()
        done.insert(name)
    }

    /// The partials a template names, in order, each once.
    private static func partials(in nodes: [CompiledTemplate.Node]) -> [String] {
        var names: [String] = []
        for (name, _) in CompiledTemplate(nodes: nodes).partials where !names.contains(name) { names.append(name) }
        return names
    }
}
