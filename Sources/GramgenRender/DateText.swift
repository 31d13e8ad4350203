import Foundation
import GramgenCore

/// Dates as pages show them to people: a readable day in the author's offset. (The machine-readable
/// form is `PostDate.rfc3339`.) Computed arithmetically (no formatter objects): pages show
/// thousands of dates.
enum DateText {
    static func iso(_ date: PostDate) -> String { date.rfc3339 }

    static func readable(_ date: PostDate) -> String {
        let c = CivilTime(date)
        return "\(months[c.month - 1]) \(c.day), \(c.year)"
    }

    static func utc(_ instant: Date) -> PostDate { PostDate(instant: instant, utcOffsetSeconds: 0) }

    private static let months = ["January", "February", "March", "April", "May", "June", "July", "August",
                                 "September", "October", "November", "December"]
}
