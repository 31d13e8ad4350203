import Foundation

/// Numbers as `printf` writes them, without `String(format:)`: that goes through Foundation's
/// format parser and costs more than the rest of an image view together.
enum DecimalText {
    /// `String(format: "%.1f", value)`, byte for byte. A value within a hair of a tie (x.x5) is
    /// left to `String(format:)`, which rounds the exact binary value.
    static func oneDecimal(_ value: Double) -> String {
        let tenths = value * 10
        guard value.isFinite, value.sign == .plus, tenths < 1e15 else { return String(format: "%.1f", value) }
        let rounded = tenths.rounded(.toNearestOrEven)
        guard abs(abs(tenths - rounded) - 0.5) > 1e-6 else { return String(format: "%.1f", value) }
        let whole = Int(rounded)
        return String(whole / 10) + "." + String(whole % 10)
    }
}
