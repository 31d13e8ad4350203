/// Whole numbers in decimal, written as UTF-8 bytes in place: what `String(value)` writes, with
/// leading zeros up to `minimumDigits`. Pages, feeds and the search index write hundreds of
/// thousands of numbers; a string made for each was most of their cost.
public enum DecimalDigits {
    public static func append(_ value: Int, minimumDigits: Int = 1, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var rest = value.magnitude
        let start = out.count
        repeat {
            out.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        if out.count - start < minimumDigits { out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: minimumDigits - (out.count - start))) }
        out[start...].reverse()
    }
}
