/// Instagram (like Facebook) writes its JSON exports by escaping each UTF-8 *byte* as its own
/// `\u00XX` code point, so `é` arrives as `\u00c3\u00a9` and reads back as "Ã©". This undoes that.
public enum MojibakeRepair {
    /// The text as its author typed it. Text that already holds a code point above U+00FF was
    /// exported correctly and is returned untouched, as is text whose bytes are not valid UTF-8
    /// (a genuine Latin-1 "café" written as `\u00e9`), so repairing twice is harmless.
    public static func repair(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.unicodeScalars.count)
        var sawHighByte = false
        for scalar in text.unicodeScalars {
            guard scalar.value <= 0xFF else { return text }
            if scalar.value >= 0x80 { sawHighByte = true }
            bytes.append(UInt8(scalar.value))
        }
        guard sawHighByte, let decoded = String(validating: bytes, as: UTF8.self) else { return text }
        return decoded
    }
}
