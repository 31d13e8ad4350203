import Foundation

/// Turns what a user typed into names that are safe in URLs and on every file system.
enum NameSanitizer {
    /// An image file name: the base keeps letters, digits, `-` and `_` (others become `-`), the
    /// extension is lower-cased, and it never starts with a dot (hidden files are skipped by builds).
    static func fileName(_ name: String, fallback: String = "image") -> String {
        let ext = (name as NSString).pathExtension.lowercased()
        let base = (name as NSString).deletingPathExtension
        var clean = ""
        for scalar in base.unicodeScalars {
            let ok = scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || scalar == "_")
            if ok {
                clean.unicodeScalars.append(scalar)
            } else if !clean.isEmpty, !clean.hasSuffix("-") {
                clean += "-"
            }
        }
        while clean.hasSuffix("-") { clean.removeLast() }
        if clean.isEmpty { clean = fallback }
        return ext.isEmpty ? clean : "\(clean).\(ext)"
    }

    /// `name`, or `name-2`, `name-3`, … — the first that `taken` does not hold.
    static func unique(_ name: String, taken: (String) -> Bool) -> String {
        guard taken(name) else { return name }
        let ext = (name as NSString).pathExtension
        let base = (name as NSString).deletingPathExtension
        var n = 2
        while true {
            let candidate = ext.isEmpty ? "\(base)-\(n)" : "\(base)-\(n).\(ext)"
            if !taken(candidate) { return candidate }
            n += 1
        }
    }
}
