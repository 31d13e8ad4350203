import Foundation

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
    func day(_ date: Date) -> String { format(date, "yyyy-MM-dd") }

    /// `2024-05-25T14:30:00+09:00`: RFC 3339 with the local offset, as people read their own time.
    func timestamp(_ date: Date) -> String { format(date, "yyyy-MM-dd'T'HH:mm:ssxxxxx") }

    private func format(_ date: Date, _ pattern: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.timeZone = timeZone
        formatter.dateFormat = pattern
        return formatter.string(from: date)
    }
}
