import MockProtocol

/// The OpenAPI extension keys that carry what OpenAPI cannot say about a mock: scenarios (faults,
/// delays, sequences, templates, states), resources, and which fixture file each example is. The
/// export writes them; the import reads them, so export → import gives back an equivalent contract set.
///
/// - `x-mock` at the root: `{"version": 1, "contracts": [{"file", "domain", "description", "states",
///   "resources", "endpoints"}]}`: the contract files, their domains and states, their resources as the
///   contract writes them, and their endpoints' ids in order.
/// - `x-mock` on an operation: `{"scenarios": [...], "contentType", "whenState", "requestHeaders"}`, the
///   scenarios as the contract writes them; or `{"resource", "operation"}` for an operation a resource makes.
/// - `x-mock-fixture` on an example of `components/examples`: `{"path", "format", "template"}`: the
///   example is the fixture file at `path`, its `value` JSON (`format` `json`), the file's text (`text`)
///   or its bytes in Base64 (`base64`).
enum MockExtension {
    static let key = "x-mock"
    static let fixtureKey = "x-mock-fixture"
    static let version = 1

    /// Request headers of the mock that OpenAPI documents as such.
    static let scenarioHeader = MockHeader.scenario
    static let sessionHeader = MockHeader.session

    /// Header parameters OpenAPI ignores (they are described elsewhere in a document): a contract that
    /// requires one carries it in the operation's `x-mock.requestHeaders`.
    static let headersOpenAPIIgnores: Set<String> = ["accept", "content-type", "authorization"]
}
