import Foundation

/// Writing dates: RFC 3339 for front matter, feeds and `<time datetime>`, `YYYY-MM-DD` for post
/// folder names. Computed arithmetically (no formatter objects: pages show thousands of dates, and
/// DateFormatter is slow and not safe to share between threads). Reading them is `DateParser`.
extension PostDate {
    /// An instant in UTC (a comment's date, which carries no offset).
    public static func utc(_ instant: Date) -> PostDate { PostDate(instant: instant, utcOffsetSeconds: 0) }

    /// An instant in UTC given as Unix seconds (an export's timestamps).
    public static func utc(seconds: Int64) -> PostDate { utc(Date(timeIntervalSince1970: TimeInterval(seconds))) }

    /// The instant as the clock on the wall of `timeZone` showed it.
    public static func local(_ instant: Date, in timeZone: TimeZone) -> PostDate {
        PostDate(instant: instant, utcOffsetSeconds: timeZone.secondsFromGMT(for: instant))
    }

    /// `2024-05-25T14:30:00+09:00`; `Z` for UTC. Written as bytes: every view of a post writes
    /// its date (1.3% of a pages-only build as interpolated strings of padded numbers).
    public var rfc3339: String {
        let c = CivilTime(self)
        var text: [UInt8] = []
        text.reserveCapacity(25)
        Self.appendDay(c, to: &text)
        text.append(UInt8(ascii: "T"))
        Self.append(c.hour, 2, to: &text)
        text.append(UInt8(ascii: ":"))
        Self.append(c.minute, 2, to: &text)
        text.append(UInt8(ascii: ":"))
        Self.append(c.second, 2, to: &text)
        if utcOffsetSeconds == 0 {
            text.append(UInt8(ascii: "Z"))
        } else {
            let offset = abs(utcOffsetSeconds) / 60
            text.append(utcOffsetSeconds < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
            Self.append(offset / 60, 2, to: &text)
            text.append(UInt8(ascii: ":"))
            Self.append(offset % 60, 2, to: &text)
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// `2024-05-25`, the day in the date's own offset.
    public var day: String {
        var text: [UInt8] = []
        text.reserveCapacity(10)
        Self.appendDay(CivilTime(self), to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    private static func appendDay(_ c: CivilTime, to text: inout [UInt8]) {
        append(c.year, 4, to: &text)
        text.append(UInt8(ascii: "-"))
        append(c.month, 2, to: &text)
        text.append(UInt8(ascii: "-"))
        append(c.day, 2, to: &text)
    }

    /// `value` as `pad` writes it.
    private static func append(_ value: Int, _ width: Int, to text: inout [UInt8]) {
        guard value >= 0 else { return text.append(contentsOf: pad(value, width).utf8) }
        DecimalDigits.append(value, minimumDigits: width, to: &text)
    }

    public static func pad(_ value: Int, _ width: Int = 2) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

/// Year, month, day and time of an instant at a UTC offset (proleptic Gregorian calendar).
public struct CivilTime {
    public let year, month, day, hour, minute, second: Int

    public init(_ date: PostDate) {
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
