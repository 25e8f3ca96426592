/// One WebSocket message, whole (its fragments joined): text, which is valid UTF-8, or binary.
public enum WebSocketMessage: Sendable, Equatable {
    case text(String)
    case binary([UInt8])
}

/// The status codes of a WebSocket close (RFC 6455 §7.4.1) that this server sends or checks.
public enum WebSocketCloseCode {
    public static let normal: UInt16 = 1000
    public static let goingAway: UInt16 = 1001
    public static let protocolError: UInt16 = 1002
    /// A close frame without a code reports this one; it is never sent.
    public static let noStatus: UInt16 = 1005
    public static let invalidPayload: UInt16 = 1007
    public static let policyViolation: UInt16 = 1008
    public static let messageTooBig: UInt16 = 1009
    public static let internalError: UInt16 = 1011

    /// Whether a peer may send `code` in a close frame: the defined codes that are not reserved for reports
    /// (1005, 1006, 1015), and the ranges for registered (3000–3999) and private (4000–4999) use.
    public static func isSendable(_ code: UInt16) -> Bool {
        switch code {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }
}
