/// One contract file: a domain's endpoints and, for each, the scenarios the mock server can play.
public struct Contract: Sendable {
    /// The domain's name, for example `products`.
    public let domain: String
    /// The file it was read from, as given to the loader.
    public let file: String
    public let endpoints: [ContractEndpoint]
}

/// One endpoint of a contract: how to recognise its requests, what they must carry, how to answer.
public struct ContractEndpoint: Sendable {
    /// Unique across all contracts; names the endpoint in the admin API and the journal.
    public let id: String
    public let domain: String
    /// The method token, upper case.
    public let method: String
    public let path: PathTemplate
    public let request: RequestRequirements
    /// The `Content-Type` of bodies served from fixtures, unless a scenario overrides it.
    public let contentType: String
    /// At least one; the first is the default.
    public let scenarios: [Scenario]

    /// The scenario named `name`, if any.
    public func scenario(named name: String) -> Scenario? {
        scenarios.first { $0.name == name }
    }
}

/// What a request to an endpoint must carry. A request missing any of it gets a 400 (401 for auth).
public struct RequestRequirements: Sendable {
    public var query: [String: FieldType] = [:]
    /// Header names are matched case-insensitively.
    public var headers: [String: FieldType] = [:]
    public var pathParams: [String: FieldType] = [:]
    /// Whether `Authorization: Bearer <token>` is required.
    public var bearerAuth = false
    public var body: BodyRequirement?
}

/// The required shape of a request body.
public struct BodyRequirement: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case json, form, multipart
    }

    public let kind: Kind
    /// JSON fields, form fields or multipart parts, by name.
    public let fields: [String: FieldType]
}

/// One way the mock server can answer an endpoint.
public struct Scenario: Sendable {
    public let name: String
    /// The status to answer with; `nil` for a fault.
    public let status: Int?
    /// The fixture to serve, relative to the fixtures folder; may use path parameters:
    /// `products/{id}.json`. `nil` for an empty body.
    public let body: String?
    /// Extra response headers.
    public let headers: [String: String]
    /// Overrides the endpoint's content type.
    public let contentType: String?
    /// Misbehaviour instead of a response.
    public let fault: Fault?
    /// Milliseconds to wait before answering (or before the fault).
    public let delayMs: Int
    /// For `no_response`: how long to hold the connection open before closing it.
    public let holdMs: Int
    /// The client result this scenario must produce.
    public let expect: Expectation
    public let description: String?
}

/// A transport-level misbehaviour of the mock server. Every fault's client result is `networkFail`.
public enum Fault: String, Sendable, CaseIterable {
    /// Abort the connection with a TCP RST (SO_LINGER 0).
    case connectionReset = "connection_reset"
    /// Close the connection without sending a byte.
    case emptyResponse = "empty_response"
    /// Send bytes that are not an HTTP response, then close.
    case malformedResponse = "malformed_response"
    /// Send a `Content-Length` larger than the bytes that follow, then close.
    case truncatedBody = "truncated_body"
    /// Send nothing and hold the connection open for `holdMs`, then close.
    case noResponse = "no_response"
}

/// The client result a scenario must map to (DESIGN.md §3).
public enum Expectation: String, Sendable, CaseIterable {
    case success, requestErr, pathErr, serverErr, networkFail
}
