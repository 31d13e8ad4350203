import Foundation
import GramgenCore

/// Dates as pages show them: machine-readable RFC 3339 and a readable day, both in the author's offset.
enum DateText {
    static func iso(_ date: PostDate) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(secondsFromGMT: date.utcOffsetSeconds)
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date.instant)
    }

    static func readable(_ date: PostDate) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: date.utcOffsetSeconds) ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date.instant)
        let month = months[max(0, min(11, (parts.month ?? 1) - 1))]
        return "\(month) \(parts.day ?? 1), \(parts.year ?? 2000)"
    }

    static func utc(_ instant: Date) -> PostDate { PostDate(instant: instant, utcOffsetSeconds: 0) }

    private static let months = ["January", "February", "March", "April", "May", "June", "July", "August",
                                 "September", "October", "November", "December"]
}
