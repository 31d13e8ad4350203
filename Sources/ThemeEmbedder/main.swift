import Foundation

// Writes a Swift file holding every theme file as a string literal:
//   ThemeEmbedder OUTPUT.swift FILE...
// Raw string literals with enough '#' that no file content can close them early.
let arguments = CommandLine.arguments.dropFirst()
guard let output = arguments.first else {
    FileHandle.standardError.write(Data("usage: ThemeEmbedder OUTPUT.swift FILE...\n".utf8))
    exit(2)
}
var source = "// Generated from templates/ by the EmbedTheme plugin. Do not edit.\n"
source += "enum DefaultTheme {\n    static let files: [String: String] = [\n"
for path in arguments.dropFirst().sorted() {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
        FileHandle.standardError.write(Data("ThemeEmbedder: cannot read \(path) as UTF-8\n".utf8))
        exit(1)
    }
    var hashes = "#"
    while text.contains("\"" + hashes) { hashes += "#" }
    let name = (path as NSString).lastPathComponent
    source += "        \"\(name)\": \(hashes)\"\"\"\n\(text)\n\"\"\"\(hashes),\n"
}
source += "    ]\n}\n"
do {
    try source.write(toFile: output, atomically: true, encoding: .utf8)
} catch {
    FileHandle.standardError.write(Data("ThemeEmbedder: cannot write \(output): \(error)\n".utf8))
    exit(1)
}
