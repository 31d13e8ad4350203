import Foundation
import GramgenCore

/// Export timestamps are Unix seconds with no time zone, so posts are dated in UTC: the folder
/// name's date and the `date:` line then always agree, whatever machine runs the import. The
/// formats themselves are the core's (`PostDate+Text.swift`, `DateParser`).
enum ExportDate {
    /// RFC 3339 with the `Z` offset, e.g. `2021-03-04T05:06:07Z`.
    static func rfc3339(_ timestamp: Int64) -> String { PostDate.utc(seconds: timestamp).rfc3339 }

    /// `YYYY-MM-DD`, for folder names and messages.
    static func day(_ timestamp: Int64) -> String { PostDate.utc(seconds: timestamp).day }

    /// An ISO 8601 date as 2019–2020 exports write them (`2019-05-04T10:20:30+00:00`, with or
    /// without the offset, which then means UTC), as Unix seconds.
    static func parse(_ text: String) -> Int64? {
        DateParser.parse(text).map { Int64($0.instant.timeIntervalSince1970.rounded(.down)) }
    }
}
