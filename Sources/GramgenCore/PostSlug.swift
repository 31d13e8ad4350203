import Foundation

/// The one slug rule, for post folder names `YYYY-MM-DD-<slug>` made by `gramgen new post` and the
/// Instagram import. The folder name is the last part of the post's URL, so the slug keeps only
/// ASCII letters and digits (accents and widths folded), taken from the text's first words.
public enum PostSlug {
    public static let maxLength = 40

    /// e.g. "Café au lait in Seoul! #coffee" → "cafe-au-lait-in-seoul-coffee"; "post" when the
    /// caption has no ASCII letters or digits (Korean-only, emoji-only or empty captions).
    public static func slug(for caption: String) -> String {
        let plain = caption.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil)
            .lowercased()
        var words: [String] = []
        var current = ""
        for scalar in plain.unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                current.unicodeScalars.append(scalar)
            } else if scalar == "'" || scalar == "’" {
                continue  // "don't" → "dont", not "don-t"
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        var slug = ""
        for word in words {
            let candidate = slug.isEmpty ? word : slug + "-" + word
            if candidate.count > maxLength {
                if slug.isEmpty { slug = String(word.prefix(maxLength)) }
                break
            }
            slug = candidate
        }
        return slug.isEmpty ? "post" : slug
    }
}
