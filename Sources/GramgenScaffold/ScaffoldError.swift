import Foundation

/// Why `gramgen init` or `gramgen new` refused, phrased like a build diagnostic: what is wrong, then
/// what to do. Nothing is overwritten when one is thrown.
public struct ScaffoldError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var hint: String?

    public init(_ message: String, hint: String? = nil) {
        self.message = message
        self.hint = hint
    }

    public var description: String {
        hint.map { "\(message) — \($0)" } ?? message
    }
}
