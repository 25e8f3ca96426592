/// The header fields the mock server reads and writes beyond HTTP's own: the mock protocol that the client
/// layer (``MockSession`` in `Networking`), the server, the OpenAPI export and the recorder share.
public enum MockHeader {
    /// What every one of them starts with.
    public static let prefix = "X-Mock-"
    /// Request: the scenario to play for this request only. Response: the scenario that answered.
    public static let scenario = "X-Mock-Scenario"
    /// Response: the contract endpoint that answered.
    public static let endpoint = "X-Mock-Endpoint"
    /// Request: the session whose state (scenario overrides, domain states, sequence positions, counters,
    /// resource items, rate-limit windows) the request reads and changes; requests without it share the
    /// default session.
    public static let session = "X-Mock-Session"
    /// Request: the condition profile (`3g`, `train`, ...) laid over this request instead of the active one.
    public static let conditions = "X-Mock-Conditions"
    /// Request: the admin token, when the admin API demands one.
    public static let adminToken = "X-Mock-Admin-Token"

    /// The longest session id the server takes (bytes of UTF-8), so a client cannot fill its memory with ids.
    public static let maximumSessionLength = 128

    /// Whether `name` is one of the mock's own fields (`X-Mock-…`, any case): meant for the mock, never for a
    /// backend it relays to, and never recorded.
    public static func isMockField(_ name: some StringProtocol) -> Bool {
        guard name.utf8.count > prefix.utf8.count else { return false }
        return name.utf8.prefix(prefix.utf8.count).elementsEqual(prefix.utf8) { lowercased($0) == lowercased($1) }
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}
