import Foundation
import GramgenCore

/// The time and zone new posts are stamped with; injected so tests get the same folder names and
/// front matter on every run.
public struct ScaffoldClock: Sendable {
    public var now: @Sendable () -> Date
    public var timeZone: TimeZone

    public init(now: @escaping @Sendable () -> Date = { Date() }, timeZone: TimeZone = .current) {
        self.now = now
        self.timeZone = timeZone
    }

    /// A clock stopped at one instant.
    public static func fixed(_ date: Date, timeZone: TimeZone) -> ScaffoldClock {
        ScaffoldClock(now: { date }, timeZone: timeZone)
    }

    /// `2024-05-25`, the prefix of a post folder (and the post's date when front matter has none).
    func day(_ date: Date) -> String { PostDate.local(date, in: timeZone).day }

    /// `2024-05-25T14:30:00+09:00`: RFC 3339 with the local offset, as people read their own time.
    func timestamp(_ date: Date) -> String { PostDate.local(date, in: timeZone).rfc3339 }
}
