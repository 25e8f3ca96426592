import MockProtocol

/// One contract file: a domain's endpoints and, for each, the scenarios the mock server can play.
package struct Contract: Sendable, Equatable {
    /// The domain's name, for example `products`.
    package let domain: String
    /// The file it was read from, as given to the loader.
    package let file: String
    /// The domain's named states, the first being the initial one; empty when it declares none.
    package let states: [String]
    /// Every endpoint, a resource's operations included.
    package let endpoints: [ContractEndpoint]
    package let resources: [Resource]
    /// The contract's `description`, for people (the OpenAPI export makes it its tag's).
    package var description: String? = nil
}

/// One endpoint of a contract: how to recognise its requests, what they must carry, how to answer.
package struct ContractEndpoint: Sendable, Equatable {
    /// Unique across all contracts; names the endpoint in the admin API and the journal.
    package let id: String
    package let domain: String
    /// The method token, upper case.
    package let method: String
    package let path: PathTemplate
    package let request: RequestRequirements
    /// The `Content-Type` of bodies served from fixtures, unless a scenario overrides it.
    package let contentType: String
    /// At least one; the first is the default.
    package let scenarios: [Scenario]
    /// The scenario to play, by name, while the domain is in a given state and nothing else names one.
    package let whenState: [String: String]
    /// For an operation of a resource: which resource (by id) and operation; its first scenario, `store`,
    /// answers from the resource's store.
    package var resource: ResourceBinding? = nil
    /// Requests allowed per window before the server answers 429.
    package var rateLimit: RateLimit? = nil
    /// The endpoint's `description`, for people.
    package var description: String? = nil
    /// The request `mock-server verify` sends for it (``VerifyExample``).
    package var verify: VerifyExample? = nil
    /// Whether it accepts a WebSocket upgrade (`"websocket": true`): its scenarios are ``WebSocketScript``s, or
    /// answers that refuse the upgrade (a status, a fault).
    package var isWebSocket = false
    /// The `Sec-WebSocket-Protocol` values it agrees to, in the contract's order.
    package var subprotocols: [String] = []

    /// The scenario named `name`, if any.
    package func scenario(named name: String) -> Scenario? {
        scenarios.first { $0.name == name }
    }
}

/// The resource and operation an endpoint serves.
package struct ResourceBinding: Sendable, Equatable {
    /// The resource's id.
    package let id: String
    package let operation: ResourceOperation
}

/// What a request to an endpoint must carry. A request missing any of it gets a 400 (401 for auth).
package struct RequestRequirements: Sendable, Equatable {
    package var query: [String: FieldType] = [:]
    /// Header names are matched case-insensitively.
    package var headers: [String: FieldType] = [:]
    package var pathParams: [String: FieldType] = [:]
    /// Whether `Authorization: Bearer <token>` is required.
    package var bearerAuth = false
    package var body: BodyRequirement?
}

/// The required shape of a request body.
package struct BodyRequirement: Sendable, Equatable {
    package enum Kind: String, Sendable, CaseIterable {
        case json, form, multipart
    }

    package let kind: Kind
    /// JSON fields, form fields or multipart parts, by name.
    package let fields: [String: FieldType]
}

/// One way the mock server can answer an endpoint.
package struct Scenario: Sendable, Equatable {
    package let name: String
    /// The status to answer with; `nil` for a fault.
    package let status: Int?
    /// The fixture to serve, relative to the fixtures folder; its file name may use path and query
    /// parameters: `products/{id}.json`, `products/page-{page_no}.json`. `nil` for an empty body.
    package let body: String?
    /// Served when the file a templated ``body`` names does not exist (or a parameter it needs is absent).
    package let fallback: String?
    /// Whether the fixture is a response template, filled in per request (see ``ResponseTemplate``).
    package let isTemplate: Bool
    /// Extra response headers.
    package let headers: [String: String]
    /// Overrides the endpoint's content type.
    package let contentType: String?
    /// Misbehaviour instead of a response.
    package let fault: Fault?
    /// Milliseconds to wait before answering (or before the fault).
    package let delayMs: Int
    /// For `no_response`: how long to hold the connection open before closing it.
    package let holdMs: Int
    /// The client result this scenario must produce.
    package let expect: Expectation
    package let description: String?
    /// Other scenarios of the endpoint to play in turn, one per request; `nil` for an ordinary scenario.
    package let sequence: ScenarioSequence?
    /// The state the domain moves to when this scenario is played.
    package let setState: String?
    /// A wait drawn per request, on top of ``delayMs``.
    package var latency: Latency? = nil
    /// The pace of the body: a bandwidth cap, or a given number of pieces over a time.
    package var bandwidth: Bandwidth? = nil
    package var dribble: Dribble? = nil
    /// Passes the request through to the real backend (`--proxy`) instead of answering it.
    package var proxy = false
    /// The rules of which any one must hold for a request to play this scenario (`when`); empty when the
    /// scenario does not depend on what the request says.
    package var when: [RequestRule] = []
    /// What `mock-server verify` adds to its endpoint's request to produce this scenario (``VerifyExample``).
    package var verify: VerifyExample? = nil
    /// How `mock-server verify` compares the backend's status with this scenario's.
    package var verifyStatus = VerifyStatus.class
    /// Server-sent events instead of a body (``EventScript``).
    package var events: EventScript? = nil
    /// For a WebSocket endpoint: what the socket does after the upgrade (``WebSocketScript``).
    package var webSocket: WebSocketScript? = nil
}

/// A scenario that plays other scenarios of its endpoint in turn: `serverErr`, `serverErr`, `success`.
package struct ScenarioSequence: Sendable, Equatable {
    /// What follows the last step.
    package enum AfterLast: String, Sendable, CaseIterable {
        /// The last step is played again and again (the default).
        case repeatLast
        /// The sequence starts over from its first step.
        case startOver
    }

    /// Scenario names of the same endpoint, none of them a sequence.
    package let steps: [String]
    package let afterLast: AfterLast

    package init(steps: [String], afterLast: AfterLast) {
        self.steps = steps
        self.afterLast = afterLast
    }

    /// The index of the step to play after `position` requests (0 for the first request).
    package func stepIndex(at position: Int) -> Int {
        switch afterLast {
        case .repeatLast: min(position, steps.count - 1)
        case .startOver: position % steps.count
        }
    }

    /// The position after one more request, kept small: it stops at the last step, or wraps.
    package func position(after position: Int) -> Int {
        switch afterLast {
        case .repeatLast: min(position + 1, steps.count)
        case .startOver: (position + 1) % steps.count
        }
    }
}

/// A transport-level misbehaviour of the mock server: the mock protocol's ``MockProtocol/Fault``.
package typealias Fault = MockProtocol.Fault

/// The client result a scenario must map to (DESIGN.md §3): the mock protocol's ``MockProtocol/ExpectedResult``.
package typealias Expectation = ExpectedResult
