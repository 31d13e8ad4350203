import Foundation
import GramgenCore
import Testing
@testable import GramgenRender

struct DecimalTextTests {
    @Test("one decimal exactly as printf writes it, ties and edges included")
    func oneDecimal() {
        var values: [Double] = [0, -0.0, 0.05, 0.15, 0.25, 0.35, 0.45, 1.25, 2.5, 9.95, 12.345, 49.95, 50, 99.95, 100,
                                0.049999999999, 0.050000000001, 1e-300, 123_456.75, -1.25, .nan, .infinity]
        var generator = SeededRandom.forTest("DecimalTextTests.oneDecimal")
        for _ in 0..<20_000 { values.append(Double.random(in: 0...1, using: &generator) * 100) }
        for step in 0...10_000 { values.append(Double(step) / 10_000 * 100) }
        for value in values {
            #expect(DecimalText.oneDecimal(value) == String(format: "%.1f", value), "\(value)")
        }
    }
}
