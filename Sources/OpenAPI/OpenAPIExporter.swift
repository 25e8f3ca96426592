import ContractModel

/// Writes a contract set as an OpenAPI 3.1 document: every endpoint (a resource's operations included)
/// with its parameters, request body schema, bearer security and, per status, the scenarios that answer
/// with it and their fixtures as examples; and, under the `x-mock` extension (``MockExtension``), what
/// OpenAPI cannot say, so that ``OpenAPIImporter`` gives back an equivalent contract set.
///
/// ```swift
/// let contracts = try ContractLoader.load(contractsDirectory: "Contracts", fixturesDirectory: "Fixtures")
/// let text = OpenAPIExporter(contracts: contracts).document().prettyPrinted()
/// ```
package struct OpenAPIExporter {
    let contracts: ContractSet
    let fixtures: FixtureExamples
    /// The address the document names as its server.
    let serverURL: String

    package init(contracts: ContractSet, serverURL: String = "http://127.0.0.1:8080") {
        self.contracts = contracts
        self.fixtures = FixtureExamples(contracts: contracts)
        self.serverURL = serverURL
    }

    /// The document, as JSON: pass it to ``JSONValue/prettyPrinted(keyOrder:)`` for stable text.
    package func document() -> JSONValue {
        var paths: [String: [String: JSONValue]] = [:]
        var usesBearer = false
        for endpoint in contracts.endpoints {
            let operation = endpoint.resource == nil ? self.operation(for: endpoint) : resourceOperation(for: endpoint)
            paths[endpoint.path.description, default: [:]][endpoint.method.lowercased()] = operation
            usesBearer = usesBearer || endpoint.request.bearerAuth
        }
        var components: [String: JSONValue] = ["schemas": .object([Self.mockErrorName: Self.mockErrorSchema])]
        if !fixtures.components.isEmpty { components["examples"] = .object(fixtures.components) }
        if usesBearer {
            components["securitySchemes"] = .object([
                Self.bearerScheme: .object([
                    "type": .string("http"), "scheme": .string("bearer"),
                    "description": .string("Any token: the mock checks that `Authorization: Bearer <token>` is there."),
                ]),
            ])
        }
        var tags: [JSONValue] = []
        var domains: Set<String> = []
        for contract in contracts.contracts where domains.insert(contract.domain).inserted {
            var tag: [String: JSONValue] = ["name": .string(contract.domain)]
            if let description = contract.description { tag["description"] = .string(description) }
            tags.append(.object(tag))
        }
        return .object([
            "openapi": .string("3.1.0"),
            "info": .object([
                "title": .string("Mock API"),
                "version": .string("1.0.0"),
                "description": .string("Exported by `mock-server openapi export` from \(contracts.contracts.count) "
                    + "contract file(s). Every response lists the scenarios that answer with its status; "
                    + "`X-Mock-Scenario` picks one per request. The `x-mock` extensions carry the scenarios, "
                    + "states and resources, so `mock-server openapi import` gives the contracts back."),
            ]),
            "servers": .array([
                .object(["url": .string(serverURL), "description": .string("mock-server's default address")]),
            ]),
            "tags": .array(tags),
            "paths": .object(paths.mapValues { .object($0) }),
            "components": .object(components),
            MockExtension.key: rootExtension(),
        ])
    }

    /// The contract files, their domains, states, resources and endpoints' order.
    private func rootExtension() -> JSONValue {
        let contractsExtension: [JSONValue] = contracts.contracts.map { contract in
            var fields: [String: JSONValue] = [
                "file": .string(String(contract.file.split(separator: "/").last ?? "")),
                "domain": .string(contract.domain),
                "endpoints": .strings(contract.endpoints.filter { $0.resource == nil }.map(\.id)),
            ]
            if let description = contract.description { fields["description"] = .string(description) }
            if !contract.states.isEmpty { fields["states"] = .strings(contract.states) }
            if !contract.resources.isEmpty {
                fields["resources"] = .array(contract.resources.map { resource in
                    let operations = contract.endpoints.filter { $0.resource?.id == resource.id }
                    return ContractWriter.resource(resource, operations: operations)
                })
            }
            return .object(fields)
        }
        return .object(["version": .integer(MockExtension.version), "contracts": .array(contractsExtension)])
    }

    static let bearerScheme = "bearer"
    static let mockErrorName = "MockError"

    /// The body of the responses the mock server makes itself: a request that breaks its contract, an
    /// unknown scenario, a missing fixture, a resource's refusals.
    static let mockErrorSchema: JSONValue = .object([
        "type": .string("object"),
        "description": .string("An answer of the mock server itself, in the questions API's envelope."),
        "required": .strings(["status", "responseMsg"]),
        "properties": .object([
            "status": .object(["type": .string("integer")]),
            "responseMsg": .object(["type": .string("string")]),
            "violations": .object(["type": .string("array"), "items": .object(["type": .string("string")])]),
            "validScenarios": .object(["type": .string("array"), "items": .object(["type": .string("string")])]),
            "data": .object(["type": .string("null")]),
        ]),
    ])

    static var mockErrorReference: JSONValue {
        .object(["$ref": .string("#/components/schemas/" + mockErrorName)])
    }
}
