import Foundation
import GramgenCore

/// IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) for Last-Modified and If-Modified-Since, computed
/// with the core's calendar arithmetic (`CivilTime`, `DateParser.daysSince1970`): DateFormatter is
/// slow per request and not safe to share between threads.
enum HTTPDate {
    private static let days = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"] // 1970-01-01 was a Thursday
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func format(_ seconds: Int) -> String {
        let c = CivilTime(PostDate.utc(seconds: Int64(seconds)))
        let dayNumber = DateParser.daysSince1970(year: c.year, month: c.month, day: c.day)
        let weekday = days[((dayNumber % 7) + 7) % 7]
        return "\(weekday), \(PostDate.pad(c.day)) \(months[c.month - 1]) \(PostDate.pad(c.year, 4)) "
            + "\(PostDate.pad(c.hour)):\(PostDate.pad(c.minute)):\(PostDate.pad(c.second)) GMT"
    }

    /// Seconds since 1970 of an IMF-fixdate, or nil for anything else (then the header is ignored).
    static func parse(_ text: String) -> Int? {
        let fields = text.split(separator: " ")
        guard fields.count == 6, fields[5] == "GMT", days.contains(String(fields[0].dropLast())),
              let day = Int(fields[1]), let month = months.firstIndex(of: String(fields[2])), let year = Int(fields[3]),
              (1...31).contains(day), (1970...9999).contains(year) else {
            return nil
        }
        let clock = fields[4].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3, clock[0] < 24, clock[1] < 60, clock[2] < 61 else { return nil }
        let seconds = DateParser.daysSince1970(year: year, month: month + 1, day: day) * 86_400 + clock[0] * 3600 + clock[1] * 60 + clock[2]
        return seconds < 0 ? nil : seconds
    }
}
