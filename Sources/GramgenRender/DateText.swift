import Foundation
import GramgenCore

/// Dates the theme shows: a comment's instant as a date in UTC (comments carry no offset). The
/// machine-readable form is `PostDate.rfc3339`; the readable one is `Messages.date`, in the
/// site's language.
enum DateText {
    static func utc(_ instant: Date) -> PostDate { PostDate(instant: instant, utcOffsetSeconds: 0) }
}
