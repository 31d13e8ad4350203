import Foundation
import GramgenCore

/// Reads a user's text file as UTF-8, reporting what is wrong instead of failing.
enum TextFile {
    static let maxBytes = InputFile.maxTextBytes

    /// - Parameter folder: the file must lie inside it after following links (see `FileContainment`).
    static func read(_ url: URL, path: String, required: Bool, within folder: URL,
                     diagnostics: inout Diagnostics) -> String? {
        if FileManager.default.fileExists(atPath: url.path), !FileContainment.isInside(url, folder) {
            diagnostics.error(SourceLocation(path), "the file is a link to a file outside \(folder.lastPathComponent)/",
                              hint: "copy the file here instead of linking to it")
            return nil
        }
        return read(atPath: url.path, path: path, required: required, diagnostics: &diagnostics)
    }

    /// Reads a file the caller knows to exist inside the folder (a regular file, not a link, reached
    /// without links: see `ContentFolder`).
    static func read(insideFileAtPath filePath: String, path: String, diagnostics: inout Diagnostics) -> String? {
        read(atPath: filePath, path: path, required: true, diagnostics: &diagnostics)
    }

    private static func read(atPath filePath: String, path: String, required: Bool,
                             diagnostics: inout Diagnostics) -> String? {
        let data: Data
        switch InputFile.read(atPath: filePath, limit: maxBytes) {
        case .success(let bytes):
            data = bytes
        case .failure(.missing):
            if required {
                diagnostics.error(SourceLocation(path), "the file is missing", hint: "create it, or remove the folder")
            }
            return nil
        case .failure(.tooLarge):
            diagnostics.error(SourceLocation(path), "the file is larger than 2 MB", hint: "shorten the text")
            return nil
        case .failure(let failure):
            diagnostics.error(SourceLocation(path), failure.message, hint: failure.hint)
            return nil
        }
        guard var text = String(data: data, encoding: .utf8) else {
            let line = firstInvalidLine(in: data)
            diagnostics.error(SourceLocation(path, line: line), "the file is not valid UTF-8 text",
                              hint: "save it with UTF-8 encoding")
            return nil
        }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        // Windows line endings: "\r\n" is one Character in Swift, so lines would never split.
        if text.utf8.contains(UInt8(ascii: "\r")) { text = text.replacingOccurrences(of: "\r\n", with: "\n") }
        return text
    }

    private static func firstInvalidLine(in data: Data) -> Int {
        var line = 1
        var start = data.startIndex
        for index in data.indices where data[index] == 10 {
            if String(data: data[start..<index], encoding: .utf8) == nil { return line }
            line += 1
            start = index + 1
        }
        return line
    }
}
