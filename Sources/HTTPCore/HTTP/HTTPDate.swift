/// IMF-fixdate (RFC 9110 §5.6.7) for the `Date` header, formatted once per second.
package struct HTTPDate {
    private var second = -1
    private(set) var bytes: [UInt8] = []

    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The header value for the current second, recomputed only when the second changes.
    package mutating func current() -> [UInt8] {
        let now = POSIX.wallClock().seconds
        if now != second {
            second = now
            bytes = Array(Self.format(now).utf8)
        }
        return bytes
    }

    package static func format(_ seconds: Int) -> String {
        let (year, month, day, hour, minute, second, weekday) = POSIX.utcFields(seconds)
        return "\(days[weekday]), \(pad(day)) \(months[month - 1]) \(year) \(pad(hour)):\(pad(minute)):\(pad(second)) GMT"
    }

    /// ISO 8601 in UTC with milliseconds, for logs and the journal.
    package static func iso8601(seconds: Int, milliseconds: Int) -> String {
        let (year, month, day, hour, minute, second, _) = POSIX.utcFields(seconds)
        let millis = milliseconds < 10 ? "00\(milliseconds)" : milliseconds < 100 ? "0\(milliseconds)" : "\(milliseconds)"
        return "\(year)-\(pad(month))-\(pad(day))T\(pad(hour)):\(pad(minute)):\(pad(second)).\(millis)Z"
    }

    /// The seconds and milliseconds of a time written by ``iso8601(seconds:milliseconds:)``.
    package static func parseISO8601(_ text: String) -> (Int, Int)? {
        let digits = text.utf8.split { !(48...57).contains($0) }.map { Int(String(decoding: $0, as: UTF8.self)) ?? 0 }
        guard digits.count == 7 else { return nil }
        let (year, month, day) = (digits[0], digits[1], digits[2])
        // Days from the civil date (Howard Hinnant's algorithm), valid for the proleptic Gregorian calendar.
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return (days * 86_400 + digits[3] * 3_600 + digits[4] * 60 + digits[5], digits[6])
    }

    private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
