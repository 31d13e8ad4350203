import Foundation
import GramgenCore

/// Dates as pages show them: machine-readable RFC 3339 and a readable day, both in the author's
/// offset. Computed arithmetically (no formatter objects): pages show thousands of dates.
enum DateText {
    static func iso(_ date: PostDate) -> String {
        let c = CivilTime(date)
        var text = "\(pad(c.year, 4))-\(pad(c.month))-\(pad(c.day))T\(pad(c.hour)):\(pad(c.minute)):\(pad(c.second))"
        if date.utcOffsetSeconds == 0 {
            text += "Z"
        } else {
            let offset = abs(date.utcOffsetSeconds) / 60
            text += (date.utcOffsetSeconds < 0 ? "-" : "+") + "\(pad(offset / 60)):\(pad(offset % 60))"
        }
        return text
    }

    static func readable(_ date: PostDate) -> String {
        let c = CivilTime(date)
        return "\(months[c.month - 1]) \(c.day), \(c.year)"
    }

    static func utc(_ instant: Date) -> PostDate { PostDate(instant: instant, utcOffsetSeconds: 0) }

    private static func pad(_ value: Int, _ width: Int = 2) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    private static let months = ["January", "February", "March", "April", "May", "June", "July", "August",
                                 "September", "October", "November", "December"]
}

/// Year, month, day and time of an instant at a UTC offset (proleptic Gregorian calendar).
struct CivilTime {
    let year, month, day, hour, minute, second: Int

    init(_ date: PostDate) {
        let seconds = Int(date.instant.timeIntervalSince1970.rounded(.down)) + date.utcOffsetSeconds
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let secondOfDay = seconds - days * 86400
        hour = secondOfDay / 3600
        minute = secondOfDay % 3600 / 60
        second = secondOfDay % 60
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        day = doy - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    }
}
