/// What `mock-server verify` sends and how it judges: the command line's flags.
package struct VerifyOptions: Sendable {
    /// `--header 'Name: value'` fields sent with every request (credentials: never printed or written).
    package var headers: [(name: String, value: String)] = []
    /// `--allow-writes`: POST, PUT, PATCH and DELETE are sent too.
    package var allowWrites = false
    /// `--only <endpoint id>` (repeatable): only these endpoints.
    package var only: Set<String> = []
    /// `--strict`: keys only the backend's answer has are drift, not notes.
    package var strict = false
    /// `--timeout <s>`: seconds to connect, and between two reads of an answer.
    package var timeout = 10.0
    /// `--budget <s>`: seconds for the whole run; cases not reached by then are not verified.
    package var budget = 300.0
    /// `--concurrency <n>`: requests in flight at once.
    package var concurrency = 1

    package init() {}
}
