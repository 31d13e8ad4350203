import Foundation

/// The identity of a hashtag, and the one place its folder name and link are made.
///
/// Tags group after Unicode NFKC, case folding and removal of default-ignorable code points
/// (SITE-FORMAT.md): `#Seoul`, `#seoul`, full-width `#ＳＥＯＵＬ` and `#seoul` followed by the
/// emoji variation selector U+FE0F are one tag. The key is then NFC, as the contract's URLs are.
///
/// ASCII tags, nearly all of them, take a shortcut: Foundation's Unicode normalisation and
/// percent-encoding cost far more than the rest of a caption's rendering, and for ASCII they change
/// nothing (NFKC leaves ASCII as it is, and ASCII has no default-ignorables), so the answers are the same.
public enum TagKey {
    public static func key(for tag: String) -> String {
        isASCII(tag) ? tag.lowercased() : folded(tag)
    }

    /// The key by the general rule, without the ASCII shortcut.
    static func folded(_ tag: String) -> String {
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
        // A key made only of unreserved characters needs no escaping.
        if key.utf8.count <= maxFolderBytes, key.utf8.allSatisfy(isUnreserved) { return key }
        return percentEncoded(key)
    }

    /// The link by the general rule, without the shortcut.
    static func percentEncoded(_ key: String) -> String {
        let name = folderName(for: key)
        return name.addingPercentEncoding(withAllowedCharacters: unreserved) ?? name
    }

    /// `String.precomposedStringWithCanonicalMapping`, which leaves ASCII as it is.
    public static func precomposed(_ text: String) -> String {
        isASCII(text) ? text : text.precomposedStringWithCanonicalMapping
    }

    static let unreserved = CharacterSet(charactersIn:
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    private static func isASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 < 0x80 }
    }

    /// RFC 3986 unreserved: ALPHA / DIGIT / "-" / "." / "_" / "~" (`unreserved`).
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}
