import ContractModel
import Foundation
import MockServer
import Networking
import Testing

/// Every scenario of every contract, through the typed client over real loopback TCP: the result
/// maps to the contract's `expect`, and the journal shows the client's request conforming.
struct ContractScenarioTests {
    @Test func contracts_Load_AndEveryEndpointHasATypedCall() throws {
        let set = try ContractCatalog.contracts.get()
        let missing = set.endpoints.map(\.id).filter { CallRegistry.calls[$0] == nil }
        #expect(missing.isEmpty, "contract endpoints without a typed call in CallRegistry: \(missing)")
        #expect(!ContractCatalog.cases.isEmpty)
    }

    @Test(arguments: ContractCatalog.cases)
    func scenario_MapsToItsExpectedResult(_ contractCase: ContractCase) async throws {
        let server = try LiveServer.shared.get()
        let call = try #require(CallRegistry.calls[contractCase.endpoint.id],
                                "no typed call registered for \(contractCase.endpoint.id)")
        let scenario = contractCase.scenario
        let trace = UUID().uuidString
        // URLSession on Linux truncates timeouts to whole seconds; 1 s keeps no_response cases short.
        let timeout: TimeInterval = scenario.fault == .noResponse ? 1 : 5
        let (client, session) = LiveServer.client(
            port: server.port, headers: [RequestHandlerHeaders.scenario: scenario.name, LiveServer.traceHeader: trace],
            timeout: timeout)
        defer { session.finishTasksAndInvalidate() }

        // WHEN
        let observation = await call.invoke(Services(client: client), [])

        // THEN the result is the contract's
        #expect(observation.caseName == scenario.expect.rawValue,
                "\(contractCase.testDescription): expected \(scenario.expect.rawValue), got \(observation.caseName)")
        try checkDetails(observation, contractCase, call)

        // AND the server saw a conforming request for this endpoint and scenario
        let entry = try #require(LiveServer.entry(in: server, trace: trace), "no journal entry for the request")
        #expect(entry.endpoint == contractCase.endpoint.id)
        #expect(entry.scenario == scenario.name)
        #expect(entry.violations == [], "the client broke the contract: \(entry.violations)")
        #expect(entry.status == scenario.status)
        #expect(entry.fault == scenario.fault?.rawValue)
    }

    private func checkDetails(_ observation: Observation, _ contractCase: ContractCase, _ call: ContractCall) throws {
        let scenario = contractCase.scenario
        switch scenario.expect {
        case .success:
            let fixture = try fixtureData(scenario, call)
            #expect(observation.value == (try call.decodeFixture(fixture)), "decoded value differs from the fixture")
        case .requestErr:
            #expect(observation.status == scenario.status)
            #expect(observation.message == Self.expectedMessage(try fixtureData(scenario, call)))
        case .serverErr:
            #expect(observation.status == scenario.status)
        case .pathErr:
            #expect(observation.status == scenario.status)
        case .networkFail:
            let expected = scenario.fault.flatMap { Self.transportKinds[$0] }
            #expect(observation.transportKind == expected, "fault \(scenario.fault?.rawValue ?? "-")")
        }
    }

    /// How each fault reaches the client, on Linux as on Darwin.
    static let transportKinds: [Fault: TransportError.Kind] = [
        .connectionReset: .connectionLost,
        .emptyResponse: .connectionLost,
        .truncatedBody: .connectionLost,
        .malformedResponse: .badResponse,
        .noResponse: .timedOut,
    ]

    private func fixtureData(_ scenario: Scenario, _ call: ContractCall) throws -> Data {
        guard let template = scenario.body else { return Data() }
        let path = try #require(FixturePath.resolve(template, parameters: call.parameters))
        return try Data(contentsOf: URL(fileURLWithPath: ContractCatalog.fixturesDirectory + "/" + path))
    }

    /// The message a requestErr must carry: the body's `responseMsg` or `message`, else its text.
    static func expectedMessage(_ body: Data) -> String {
        if let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
           let message = (object["responseMsg"] ?? object["message"]) as? String {
            return message
        }
        return String(decoding: body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

enum RequestHandlerHeaders {
    static let scenario = "X-Mock-Scenario"
}
