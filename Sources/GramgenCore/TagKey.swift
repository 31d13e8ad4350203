import Foundation

/// The identity of a hashtag, and the one place its folder name and link are made.
///
/// Tags group after Unicode NFKC, case folding and removal of default-ignorable code points
/// (SITE-FORMAT.md): `#Seoul`, `#seoul`, full-width `#ＳＥＯＵＬ` and `#seoul` followed by the
/// emoji variation selector U+FE0F are one tag. The key is then NFC, as the contract's URLs are.
public enum TagKey {
    public static func key(for tag: String) -> String {
        var folded = String.UnicodeScalarView()
        for scalar in tag.precomposedStringWithCompatibilityMapping.lowercased().unicodeScalars
        where !scalar.properties.isDefaultIgnorableCodePoint {
            // Full case folding differs from lower-casing for these (CaseFolding.txt, status F/C).
            switch scalar {
            case "\u{DF}", "\u{1E9E}": folded.append(contentsOf: "ss".unicodeScalars)
            case "\u{3C2}": folded.append("\u{3C3}")  // final sigma folds to σ
            default: folded.append(scalar)
            }
        }
        return String(folded).precomposedStringWithCanonicalMapping
    }

    /// Longest folder name written as is; file systems allow 255 bytes per name.
    public static let maxFolderBytes = 200

    /// The tag's folder below `tags/`: the key itself, or for a key too long to be a file name
    /// (90 Hangul letters are 270 bytes), its first 180 bytes and a hash of the whole key. The
    /// page still shows the whole tag.
    public static func folderName(for key: String) -> String {
        guard key.utf8.count > maxFolderBytes else { return key }
        var prefix = ""
        for scalar in key.unicodeScalars {
            guard prefix.utf8.count + String(scalar).utf8.count <= 180 else { break }
            prefix.unicodeScalars.append(scalar)
        }
        return prefix + "-" + ContentHash.hex(Data(key.utf8)).prefix(16)
    }

    /// The tag's folder name percent-encoded for a link (`tags/<encoded>/`).
    public static func urlComponent(for key: String) -> String {
        let name = folderName(for: key)
        return name.addingPercentEncoding(withAllowedCharacters: unreserved) ?? name
    }

    static let unreserved = CharacterSet(charactersIn:
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
}
