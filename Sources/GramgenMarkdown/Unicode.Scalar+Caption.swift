/// Character classes of the hashtag and mention rules in SITE-FORMAT.md ("Hashtags and mentions").
/// ASCII is decided without a Unicode property lookup because captions are mostly ASCII.
extension Unicode.Scalar {
    /// Letters of any script (Lu, Ll, Lt, Lm, Lo): a hashtag needs at least one, so `#2024` is a year.
    var isCaptionLetter: Bool {
        if isASCII { return (value | 0x20) >= 0x61 && (value | 0x20) <= 0x7A }
        switch properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: return true
        default: return false
        }
    }

    /// What a hashtag is made of: letters, marks (Mn, Mc, Me — so NFD `café` and Hangul jamo
    /// stay whole), decimal digits and `_`.
    var isHashtagCharacter: Bool {
        if isASCII {
            return (value | 0x20) >= 0x61 && (value | 0x20) <= 0x7A || (value >= 0x30 && value <= 0x39) || value == 0x5F
        }
        switch properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber:
            return true
        default:
            return false
        }
    }

    /// A `#` or `@` glued to one of these is part of a word (`C#`, `a@b`), not a tag or mention.
    /// Marks count, so a `#` after NFD `é` is after a letter.
    var continuesWord: Bool { isHashtagCharacter }
}
