/// IMF-fixdate (RFC 9110 §5.6.7) for the `Date` header, formatted once per second.
///
/// The wall clock is read about once per second too, not per response: the text is kept until a monotonic deadline,
/// no later than the end of the second it was read in. The caller passes the monotonic time it already has (the event
/// loop's, read once per turn), so a response costs no clock read. Like nginx's cached time, the text is never
/// earlier than the second the turn began in, but a long turn may lag behind the current second. After a system
/// sleep (the monotonic clock stands still in it), the text from before it may be sent for up to a second more.
public struct HTTPDate {
    private var second = -1
    /// The current second's text (29 bytes), kept inline: lent by pointer, it costs no reference counting per
    /// response, where an array cost a retain and a release.
    private var text: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    private var count = 0
    /// Monotonic nanoseconds before which ``text`` is still the wall clock's second.
    private(set) var validUntil: UInt64 = 0

    public init() {}

    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Calls `body` with the header value for the second that monotonic time `now` falls in.
    /// - Parameter now: ``POSIX/monotonicNanoseconds()``, read at most a moment ago.
    public mutating func withCurrent<R>(at now: UInt64, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        if now >= validUntil { update(now: now, wall: POSIX.wallClock()) }
        let count = count
        return withUnsafeBytes(of: &text) { body(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
    }

    /// Takes the wall clock's reading `wall`, made at or after monotonic time `now`: the text of its second, kept until
    /// that second ends, or earlier (by the time between `now` and the reading, and a millisecond, as the reading's
    /// milliseconds are truncated): a reading made early only formats the same second again.
    mutating func update(now: UInt64, wall: (seconds: Int, milliseconds: Int)) {
        validUntil = now + UInt64(max(0, 999 - wall.milliseconds)) * 1_000_000
        guard wall.seconds != second else { return }
        second = wall.seconds
        let formatted = Array(Self.format(wall.seconds).utf8.prefix(MemoryLayout.size(ofValue: text)))
        count = formatted.count
        withUnsafeMutableBytes(of: &text) { $0.copyBytes(from: formatted) }
    }

    /// The header value for the current second, as an array.
    public mutating func current() -> [UInt8] { withCurrent(at: POSIX.monotonicNanoseconds()) { Array($0) } }

    public static func format(_ seconds: Int) -> String {
        let (year, month, day, hour, minute, second, weekday) = POSIX.utcFields(seconds)
        return "\(days[weekday]), \(pad(day)) \(months[month - 1]) \(year) \(pad(hour)):\(pad(minute)):\(pad(second)) GMT"
    }

    /// ISO 8601 in UTC with milliseconds, for logs and the journal.
    public static func iso8601(seconds: Int, milliseconds: Int) -> String {
        let (year, month, day, hour, minute, second, _) = POSIX.utcFields(seconds)
        let millis = milliseconds < 10 ? "00\(milliseconds)" : milliseconds < 100 ? "0\(milliseconds)" : "\(milliseconds)"
        return "\(year)-\(pad(month))-\(pad(day))T\(pad(hour)):\(pad(minute)):\(pad(second)).\(millis)Z"
    }

    /// ISO 8601 in UTC to the second, `2026-11-23T10:00:00Z`, for response templates' `{{now}}`.
    public static func iso8601(seconds: Int) -> String {
        let (year, month, day, hour, minute, second, _) = POSIX.utcFields(seconds)
        return "\(year)-\(pad(month))-\(pad(day))T\(pad(hour)):\(pad(minute)):\(pad(second))Z"
    }

    /// Reads what ``iso8601(seconds:milliseconds:)`` writes, as RFC 3339 §5.6 defines it in UTC:
    /// `YYYY-MM-DDTHH:MM:SS[.fraction]Z`, every field in range (a leap second, 60, included). The fraction
    /// is a decimal: `.7` is 700 ms.
    /// - Returns: Seconds since 1970 and milliseconds, or `nil` for anything else.
    public static func parseISO8601(_ text: String) -> (Int, Int)? {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[range] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        func byte(_ index: Int, is expected: Character) -> Bool {
            index < bytes.count && bytes[index] == expected.asciiValue
        }
        guard bytes.count >= 20, byte(4, is: "-"), byte(7, is: "-"), byte(10, is: "T"), byte(13, is: ":"),
              byte(16, is: ":"), bytes.last == UInt8(ascii: "Z"),
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              (1...12).contains(month), (1...daysIn(month, of: year)).contains(day),
              hour < 24, minute < 60, second <= 60 else { return nil }
        var milliseconds = 0
        if bytes.count > 20 {
            // `.` and one to nine digits before the `Z`.
            let digits = 20..<(bytes.count - 1)
            guard byte(19, is: "."), (1...9).contains(digits.count), let fraction = number(digits) else { return nil }
            var scale = 1
            for _ in digits.count..<9 { scale *= 10 }
            milliseconds = fraction * scale / 1_000_000
        } else if bytes.count != 20 {
            return nil
        }
        // Days from the civil date (Howard Hinnant's algorithm), valid for the proleptic Gregorian calendar.
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return (days * 86_400 + hour * 3_600 + minute * 60 + second, milliseconds)
    }

    private static func daysIn(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
