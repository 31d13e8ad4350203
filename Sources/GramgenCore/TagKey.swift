import Foundation

/// The identity of a hashtag: NFC-normalised and lower-cased, so `#Seoul` and `#seoul` are one tag.
public enum TagKey {
    public static func key(for tag: String) -> String {
        tag.precomposedStringWithCanonicalMapping.lowercased().precomposedStringWithCanonicalMapping
    }

    /// The key percent-encoded for use in a link (`tags/<encoded>/`). The folder on disk uses the raw key.
    public static func urlComponent(for key: String) -> String {
        key.addingPercentEncoding(withAllowedCharacters: unreserved) ?? key
    }

    static let unreserved = CharacterSet(charactersIn:
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
}
