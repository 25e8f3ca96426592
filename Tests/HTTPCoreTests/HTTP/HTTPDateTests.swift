@testable import HTTPCore
import Testing

/// The `Date` header's IMF-fixdate (RFC 9110 §5.6.7, after RFC 5322 §3.3) and the journal's ISO 8601
/// times (RFC 3339 §5.6), for instants whose calendar is known.
struct HTTPDateTests {
    // MARK: - IMF-fixdate

    /// `day-name "," SP date1 SP time-of-day SP GMT`, where `date1 = day SP month SP year` with a
    /// two-digit day and a four-digit year: always 29 characters.
    @Test(arguments: [
        (784_111_777, "Sun, 06 Nov 1994 08:49:37 GMT"),   // the example of RFC 9110 §5.6.7
        (0, "Thu, 01 Jan 1970 00:00:00 GMT"),             // the epoch
        (951_782_400, "Tue, 29 Feb 2000 00:00:00 GMT"),   // leap day of a year divisible by 400
        (1_709_251_199, "Thu, 29 Feb 2024 23:59:59 GMT"), // last second of a leap day
        (2_147_483_647, "Tue, 19 Jan 2038 03:14:07 GMT"), // the largest signed 32-bit time
        (2_147_483_648, "Tue, 19 Jan 2038 03:14:08 GMT"), // one second past it
        (4_107_542_400, "Mon, 01 Mar 2100 00:00:00 GMT"), // 2100 is no leap year: Feb 28 is followed by Mar 1
        (253_402_300_799, "Fri, 31 Dec 9999 23:59:59 GMT"), // the last instant with a four-digit year
    ])
    func format_IsIMFFixdate_ForKnownInstants(seconds: Int, expected: String) {
        let text = HTTPDate.format(seconds)
        #expect(text == expected)
        #expect(text.utf8.count == 29)
    }

    @Test func current_IsTheFormattedWallClockSecond() {
        var date = HTTPDate()
        let before = POSIX.wallClock().seconds
        let bytes = date.current()
        let after = POSIX.wallClock().seconds
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text == HTTPDate.format(before) || text == HTTPDate.format(after))
        #expect(date.current() == bytes || after != before)
    }

    /// The text of a wall-clock reading is kept, unread again, until the monotonic time its second ends, a
    /// millisecond early; from then on the wall clock is read again.
    @Test func aReading_IsKeptUntilItsSecondEnds_ThenTheClockIsReadAgain() {
        var date = HTTPDate()
        let start = POSIX.monotonicNanoseconds()
        date.update(now: start, wall: (seconds: 784_111_777, milliseconds: 250))
        #expect(date.validUntil == start + 749_000_000)
        let kept = date.withCurrent(at: start + 748_999_999) { String(decoding: $0, as: UTF8.self) }
        #expect(kept == "Sun, 06 Nov 1994 08:49:37 GMT", "not read again within the second")
        let before = POSIX.wallClock().seconds
        let read = date.withCurrent(at: start + 749_000_000) { String(decoding: $0, as: UTF8.self) }
        let after = POSIX.wallClock().seconds
        #expect(read == HTTPDate.format(before) || read == HTTPDate.format(after), "read again at the second's end")
        // A reading in the last millisecond of its second is good for none of it.
        date.update(now: start, wall: (seconds: 0, milliseconds: 999))
        #expect(date.validUntil == start)
    }

    // MARK: - ISO 8601

    @Test(arguments: [
        (0, 0, "1970-01-01T00:00:00.000Z"),
        (1_709_210_096, 7, "2024-02-29T12:34:56.007Z"),
        (1_709_210_096, 42, "2024-02-29T12:34:56.042Z"),
        (2_147_483_648, 999, "2038-01-19T03:14:08.999Z"),
        (4_107_542_400, 100, "2100-03-01T00:00:00.100Z"),
    ])
    func iso8601_IsUTC_WithThreeDigitMilliseconds(seconds: Int, milliseconds: Int, expected: String) {
        #expect(HTTPDate.iso8601(seconds: seconds, milliseconds: milliseconds) == expected)
    }

    /// The seconds-only form that response templates write for `{{now}}`.
    @Test(arguments: [
        (0, "1970-01-01T00:00:00Z"),
        (1_709_210_096, "2024-02-29T12:34:56Z"),
        (253_402_300_799, "9999-12-31T23:59:59Z"),
    ])
    func iso8601Seconds_IsUTC_WithoutAFraction(seconds: Int, expected: String) {
        #expect(HTTPDate.iso8601(seconds: seconds) == expected)
        #expect(HTTPDate.parseISO8601(expected).map { $0.0 } == seconds)
    }

    @Test(arguments: [0, 784_111_777, 951_782_400, 1_709_251_199, 2_147_483_648, 4_107_542_400, 253_402_300_799])
    func parseISO8601_ReadsBackWhatIso8601Wrote(seconds: Int) throws {
        for milliseconds in [0, 7, 42, 999] {
            let text = HTTPDate.iso8601(seconds: seconds, milliseconds: milliseconds)
            let parsed = try #require(HTTPDate.parseISO8601(text), "\(text)")
            #expect(parsed.0 == seconds && parsed.1 == milliseconds, "\(text)")
        }
    }

    @Test(arguments: ["", "garbage", "2024-02-29", "2024-02-29T12:34Z", "T12:34:56.007Z", "2024-02-29T12:34:56.007.1Z"])
    func parseISO8601_RejectsTextWithTheWrongNumberOfFields(text: String) {
        #expect(HTTPDate.parseISO8601(text) == nil)
    }

    /// RFC 3339 §5.6: `date-month` is 01–12, `date-mday` is limited by month and year (§5.7), `time-hour`
    /// 00–23, `time-minute` 00–59, the separators are `-`, `T` and `:`, and a `time-offset` is required.
    @Test(arguments: [
        "2024-13-01T00:00:00.000Z", // month 13
        "2024-02-30T00:00:00.000Z", // February 30
        "2023-02-29T00:00:00.000Z", // leap day of a common year
        "2024-02-29T24:00:00.000Z", // hour 24
        "2024-02-29T12:60:00.000Z", // minute 60
        "2024/02/29T12:34:56.007Z", // slashes
        "2024-02-29T12:34:56.007",  // no offset
    ])
    func parseISO8601_RejectsFieldsOutOfRange_AndWrongSeparators(text: String) {
        #expect(HTTPDate.parseISO8601(text) == nil)
    }

    /// RFC 3339 §5.6: `time-secfrac = "." 1*DIGIT` is a decimal fraction, so `.7` is 700 ms, not 7.
    @Test func parseISO8601_ReadsTheFractionAsADecimal_OrRejectsIt() {
        let parsed = HTTPDate.parseISO8601("2024-02-29T12:34:56.7Z")
        #expect(parsed?.1 == 700)
    }
}
