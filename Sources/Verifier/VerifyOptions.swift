/// What `mock-server verify` sends and how it judges: the command line's flags.
public struct VerifyOptions: Sendable {
    /// `--header 'Name: value'` fields sent with every request (credentials: never printed or written).
    public var headers: [(name: String, value: String)] = []
    /// `--allow-writes`: POST, PUT, PATCH and DELETE are sent too.
    public var allowWrites = false
    /// `--only <endpoint id>` (repeatable): only these endpoints.
    public var only: Set<String> = []
    /// `--strict`: keys only the backend's answer has are drift, not notes.
    public var strict = false
    /// `--timeout <s>`: seconds to connect, and between two reads of an answer.
    public var timeout = 10.0
    /// `--budget <s>`: seconds for the whole run; cases not reached by then are not verified.
    public var budget = 300.0
    /// `--concurrency <n>`: requests in flight at once.
    public var concurrency = 1

    public init() {}
}
