/// IMF-fixdate (RFC 9110 §5.6.7) for the `Date` header, formatted once per second.
struct HTTPDate {
    private var second = -1
    private(set) var bytes: [UInt8] = []

    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The header value for the current second, recomputed only when the second changes.
    mutating func current() -> [UInt8] {
        let now = System.wallClock().seconds
        if now != second {
            second = now
            bytes = Array(Self.format(now).utf8)
        }
        return bytes
    }

    static func format(_ seconds: Int) -> String {
        let (year, month, day, hour, minute, second, weekday) = System.utcFields(seconds)
        return "\(days[weekday]), \(pad(day)) \(months[month - 1]) \(year) \(pad(hour)):\(pad(minute)):\(pad(second)) GMT"
    }

    /// ISO 8601 in UTC with milliseconds, for logs and the journal.
    static func iso8601(seconds: Int, milliseconds: Int) -> String {
        let (year, month, day, hour, minute, second, _) = System.utcFields(seconds)
        let millis = milliseconds < 10 ? "00\(milliseconds)" : milliseconds < 100 ? "0\(milliseconds)" : "\(milliseconds)"
        return "\(year)-\(pad(month))-\(pad(day))T\(pad(hour)):\(pad(minute)):\(pad(second)).\(millis)Z"
    }

    private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
