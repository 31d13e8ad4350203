/// Whole numbers in decimal, written as UTF-8 bytes in place: what `String(value)` writes, with
/// leading zeros up to `minimumDigits`. Pages, feeds and the search index write hundreds of
/// thousands of numbers; a string made for each was most of their cost.
public enum DecimalDigits {
    public static func append(_ value: Int, minimumDigits: Int = 1, to out: inout [UInt8]) {
        // Most numbers written are one or two digits (the search index's postings are gaps
        // between post numbers: 214,000 of them at 10,000 posts); the general way counts the
        // digits and fills a run in place, 150 instructions each.
        if value >= 0, value < 100, minimumDigits <= 1 {
            if value >= 10 { out.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value / 10)) }
            out.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10))
            return
        }
        if value < 0 { out.append(UInt8(ascii: "-")) }
        let magnitude = value.magnitude
        var digits = 1, bound: UInt = 10
        while digits < 20, magnitude >= bound {
            digits += 1
            (bound, _) = bound.multipliedReportingOverflow(by: 10)
        }
        let count = max(digits, minimumDigits)
        let start = out.count
        out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: count))
        // Written from the last digit back, in place (each appended and the run reversed took
        // twice as many instructions).
        out.withUnsafeMutableBufferPointer { buffer in
            var rest = magnitude, at = start + count - 1
            repeat {
                buffer[at] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                at -= 1
            } while rest > 0
        }
    }
}
