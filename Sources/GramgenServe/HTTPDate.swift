import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) for Last-Modified and If-Modified-Since, made with
/// the C library: DateFormatter is slow per request and not safe to share between threads here.
enum HTTPDate {
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func format(_ seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        return String(format: "%@, %02d %@ %04d %02d:%02d:%02d GMT",
                      days[Int(parts.tm_wday) % 7], parts.tm_mday, months[Int(parts.tm_mon) % 12],
                      Int(parts.tm_year) + 1900, parts.tm_hour, parts.tm_min, parts.tm_sec)
    }

    /// Seconds since 1970 of an IMF-fixdate, or nil for anything else (then the header is ignored).
    static func parse(_ text: String) -> Int? {
        let fields = text.split(separator: " ")
        guard fields.count == 6, fields[5] == "GMT",
              let day = Int(fields[1]), let month = months.firstIndex(of: String(fields[2])), let year = Int(fields[3]) else {
            return nil
        }
        let clock = fields[4].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3 else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(clock[0])
        parts.tm_min = Int32(clock[1])
        parts.tm_sec = Int32(clock[2])
        let seconds = timegm(&parts)
        return seconds < 0 ? nil : Int(seconds)
    }
}
