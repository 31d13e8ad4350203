import Foundation
import GramgenCore

/// Reads the dates users write: `2024-05-25`, `2024-05-25 14:30`, `2024-05-25T14:30:00+09:00`, `…Z`.
/// A date without an offset is taken as UTC, so a build does not depend on the machine's time zone.
enum DateParser {
    static func parse(_ text: String) -> PostDate? {
        let s = Array(text.trimmingCharacters(in: .whitespaces).utf8)
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
    static func folderDate(_ name: String) -> PostDate? {
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
