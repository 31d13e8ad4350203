import Foundation
import GramgenCore

/// `TagKey` with a shortcut for ASCII tags, which are nearly all of them: Foundation's Unicode
/// normalisation and percent-encoding cost far more than the rest of a caption's rendering, and
/// for ASCII they change nothing. Anything else goes to `TagKey`, so the answers are the same.
public enum TagKeys {
    /// `TagKey.key(for:)`: NFKC leaves ASCII as it is, and ASCII has no default-ignorables.
    public static func key(for tag: String) -> String {
        guard isASCII(tag) else { return TagKey.key(for: tag) }
        return tag.lowercased()
    }

    /// `TagKey.urlComponent(for:)`: a key made only of unreserved characters needs no escaping.
    public static func urlComponent(for key: String) -> String {
        guard key.utf8.count <= TagKey.maxFolderBytes, key.utf8.allSatisfy(isUnreserved) else {
            return TagKey.urlComponent(for: key)
        }
        return key
    }

    /// `String.precomposedStringWithCanonicalMapping`, which leaves ASCII as it is.
    public static func precomposed(_ text: String) -> String {
        isASCII(text) ? text : text.precomposedStringWithCanonicalMapping
    }

    static func isASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 < 0x80 }
    }

    /// RFC 3986 unreserved: ALPHA / DIGIT / "-" / "." / "_" / "~" (`TagKey.unreserved`).
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
