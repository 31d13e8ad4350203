import Foundation

/// Export timestamps are Unix seconds with no time zone, so posts are dated in UTC: the folder
/// name's date and the `date:` line then always agree, whatever machine runs the import.
enum ExportDate {
    /// RFC 3339 with the `Z` offset, e.g. `2021-03-04T05:06:07Z`.
    static func rfc3339(_ timestamp: Int64) -> String {
        format(timestamp, "yyyy-MM-dd'T'HH:mm:ss'Z'")
    }

    /// `YYYY-MM-DD`, for folder names and messages.
    static func day(_ timestamp: Int64) -> String {
        format(timestamp, "yyyy-MM-dd")
    }

    /// An ISO 8601 date as 2019–2020 exports write them (`2019-05-04T10:20:30+00:00`, with or
    /// without the offset, which then means UTC), as Unix seconds.
    static func parse(_ text: String) -> Int64? {
        for pattern in ["yyyy-MM-dd'T'HH:mm:ssXXXXX", "yyyy-MM-dd'T'HH:mm:ss.SSSXXXXX", "yyyy-MM-dd'T'HH:mm:ss"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.calendar = Calendar(identifier: .gregorian)
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = pattern
            if let date = formatter.date(from: text) { return Int64(date.timeIntervalSince1970) }
        }
        return nil
    }

    private static func format(_ timestamp: Int64, _ pattern: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = pattern
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(timestamp)))
    }
}
