import Foundation

/// Reads the dates users write: `2024-05-25`, `2024-05-25 14:30`, `2024-05-25T14:30:00+09:00`, `…Z`
/// (and the 2019–2020 Instagram exports' `2019-05-04T10:20:30+00:00`). A date without an offset is
/// taken as UTC, so a build does not depend on the machine's time zone. Writing dates is
/// `PostDate.rfc3339` and `PostDate.day` (PostDate+Text.swift): the one home of date formats.
public enum DateParser {
    public static func parse(_ text: String) -> PostDate? {
        let s = Array(trimmingWhitespace(text).utf8)
        var i = 0
        func number(_ digits: Int) -> Int? {
            guard i + digits <= s.count else { return nil }
            var value = 0
            for k in 0..<digits {
                let c = s[i + k]
                guard c >= 48 && c <= 57 else { return nil }
                value = value * 10 + Int(c - 48)
            }
            i += digits
            return value
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < s.count, s[i] == c else { return false }
            i += 1
            return true
        }
        guard let year = number(4), expect(45), let month = number(2), expect(45), let day = number(2) else { return nil }
        var hour = 0, minute = 0, second = 0, offset = 0
        if i < s.count {
            guard s[i] == 84 || s[i] == 116 || s[i] == 32 else { return nil } // T, t or space
            i += 1
            guard let h = number(2), expect(58), let m = number(2) else { return nil }
            hour = h
            minute = m
            if expect(58) {
                guard let sec = number(2) else { return nil }
                second = sec
                if expect(46) { while i < s.count, s[i] >= 48 && s[i] <= 57 { i += 1 } }
            }
            while i < s.count, s[i] == 32 { i += 1 }
            if i < s.count {
                if s[i] == 90 || s[i] == 122 { // Z
                    i += 1
                } else if s[i] == 43 || s[i] == 45 { // + -
                    let sign = s[i] == 45 ? -1 : 1
                    i += 1
                    guard let oh = number(2) else { return nil }
                    _ = expect(58)
                    let om = number(2) ?? 0
                    guard oh <= 14, om < 60 else { return nil }
                    offset = sign * (oh * 3600 + om * 60)
                } else {
                    return nil
                }
            }
        }
        guard i == s.count, (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61,
              (1000...9999).contains(year) else { return nil }
        if year >= 1600, second < 60 {
            guard day <= daysIn(month: month, year: year) else { return nil }
            let seconds = daysSince1970(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
            return PostDate(instant: Date(timeIntervalSince1970: TimeInterval(seconds - offset)), utcOffsetSeconds: offset)
        }
        return calendarDate(year: year, month: month, day: day, hour: hour, minute: minute, second: second, offset: offset)
    }

    /// `text.trimmingCharacters(in: .whitespaces)`, without bridging to NSString when there is
    /// nothing to trim (the only ASCII characters of `.whitespaces` are space and tab).
    private static func trimmingWhitespace(_ text: String) -> String {
        if let first = text.utf8.first, let last = text.utf8.last, first < 0x80, last < 0x80,
           first != 0x20, first != 0x09, last != 0x20, last != 0x09 {
            return text
        }
        return text.trimmingCharacters(in: .whitespaces)
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (H. Hinnant's
    /// `days_from_civil`). Foundation's Gregorian calendar is proleptic after 1582, and has no
    /// leap seconds, so for the years from 1600 it gives the same instants; earlier dates, and
    /// second 60, are left to it.
    public static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static func calendarDate(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int,
                             offset: Int) -> PostDate? {
        var components = DateComponents()
        components.calendar = calendar
        components.timeZone = TimeZone(secondsFromGMT: 0)
        components.year = year
        components.month = month
        components.day = day
        components.hour = hour
        components.minute = minute
        components.second = second
        guard components.isValidDate(in: calendar), let local = calendar.date(from: components) else { return nil }
        return PostDate(instant: local.addingTimeInterval(TimeInterval(-offset)), utcOffsetSeconds: offset)
    }

    /// The `YYYY-MM-DD` a post folder's name may start with.
    public static func folderDate(_ name: String) -> PostDate? {
        guard name.utf8.count >= 10 else { return nil }
        let prefix = String(name.prefix(10))
        if name.count > 10 {
            let next = name[name.index(name.startIndex, offsetBy: 10)]
            guard next == "-" || next == "_" || next == "." else { return nil }
        }
        return parse(prefix)
    }

    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        return calendar
    }()
}
