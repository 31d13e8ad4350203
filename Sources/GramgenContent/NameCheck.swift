import Foundation
import GramgenCore

/// Finds the entries of `content/` whose names are not valid UTF-8 and the folders that cannot be
/// read. Foundation quietly repairs such names when it lists a folder, and the file then looks
/// "missing" or is left out; a site must say which file it is instead. One `readdir` pass over the
/// tree (links are not followed), about 10 ms for 20,000 entries.
enum NameCheck {
    static func problems(in contentRoot: URL, diagnostics: inout Diagnostics) {
        var pending: [(path: String, shown: String, depth: Int)] = [(contentRoot.path, "content", 0)]
        while let folder = pending.popLast() {
            guard folder.depth < 16 else { continue }
            guard let dir = opendir(folder.path) else {
                if errno == EACCES {
                    diagnostics.error(SourceLocation(folder.shown), "cannot read the folder: \(String(cString: strerror(errno)))",
                                      hint: "check its permissions (chmod u+rx)")
                }
                continue
            }
            defer { closedir(dir) }
            while let entry = readdir(dir) {
                let bytes = withUnsafeBytes(of: &entry.pointee.d_name) { Array($0.prefix(while: { $0 != 0 })) }
                guard let name = String(validating: bytes, as: UTF8.self) else {
                    let shown = bytes.map { $0 < 0x80 ? String(UnicodeScalar($0)) : String(format: "\\x%02X", $0) }.joined()
                    diagnostics.error(SourceLocation(folder.shown + "/" + shown), "the name is not valid UTF-8",
                                      hint: "rename it; names become web addresses and must be UTF-8")
                    continue
                }
                guard name != ".", name != "..", !name.hasPrefix(".") else { continue }
                var isFolder = entry.pointee.d_type == DT_DIR
                if entry.pointee.d_type == DT_UNKNOWN {
                    var info = stat()
                    isFolder = lstat(folder.path + "/" + name, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
                }
                if isFolder { pending.append((folder.path + "/" + name, folder.shown + "/" + name, folder.depth + 1)) }
            }
        }
    }
}
