import Foundation
import GramgenCore
import Testing
@testable import GramgenRender

struct DateTextTests {
    @Test("RFC 3339 in the author's offset, matching Foundation's formatter", arguments: [
        (0.0, 0), (1_716_615_000, 32400), (1_716_615_000, -14400), (951_782_400, 0), (-86_401, 3600),
        (4_102_444_799, 0), (1_709_164_800, 19800),
    ])
    func iso(_ seconds: Double, _ offset: Int) {
        let date = PostDate(instant: Date(timeIntervalSince1970: seconds), utcOffsetSeconds: offset)
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(secondsFromGMT: offset)
        #expect(DateText.iso(date) == formatter.string(from: date.instant))
    }

    @Test("readable day")
    func readable() {
        let date = PostDate(instant: Date(timeIntervalSince1970: 1_716_615_000), utcOffsetSeconds: 32400)
        #expect(DateText.readable(date) == "May 25, 2024")
        #expect(DateText.readable(PostDate(instant: Date(timeIntervalSince1970: 951_782_400), utcOffsetSeconds: 0)) == "February 29, 2000")
    }
}
