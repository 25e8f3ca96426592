import ContractModel
import Foundation
import MockServer
import Networking
import Testing
import TestSupport

/// Every scenario of every contract, through the typed client over real loopback TCP: the result
/// maps to the contract's `expect`, and the journal shows the client's request conforming.
@Suite(.timeLimit(.minutes(2)))
struct ContractScenarioTests {
    @Test func contracts_Load_AndEveryEndpointHasATypedCall() throws {
        let set = try ContractCatalog.contracts.get()
        let missing = set.endpoints.map(\.id).filter { CallRegistry.calls[$0] == nil }
        #expect(missing.isEmpty, "contract endpoints without a typed call in CallRegistry: \(missing)")
        #expect(!ContractCatalog.cases.isEmpty)
    }

    /// Each case runs in its own mock session, so cases run in parallel even when one moves its domain
    /// to another state or walks a sequence. Each runs twice, in a session of its own each time: over TCP
    /// to the live server, and in-process through ``ContractDispatcher``; both must meet the contract, and
    /// give the same observations.
    @Test(arguments: ContractCatalog.cases)
    func scenario_MapsToItsExpectedResult(_ contractCase: ContractCase) async throws {
        let server = try LiveServer.shared.get()
        let overTCP = try await observe(contractCase, journal: server) { session, headers, timeout in
            let (client, urlSession) = LiveServer.client(port: server.port, headers: headers, session: session, timeout: timeout)
            return (client, { urlSession.finishTasksAndInvalidate() })
        }
        let dispatcher = try LiveServer.inProcess.get()
        let inProcess = try await observe(contractCase, journal: dispatcher.server) { session, headers, timeout in
            let client = APIClient(environment: .local(), dispatcher: dispatcher,
                                   interceptors: [HeaderInterceptor(headers), session], defaultTimeout: timeout)
            return (client, {})
        }
        #expect(overTCP == inProcess, "\(contractCase.testDescription): TCP and ContractDispatcher disagree")
    }

    /// Runs `contractCase` (each step of a sequence) in a new mock session through the client `makeClient`
    /// gives; checks each result against the contract and `journal`'s entry of it; returns the observations.
    private func observe(
        _ contractCase: ContractCase,
        journal server: MockServer,
        makeClient: (MockSession, [String: String], TimeInterval) -> (APIClient, () -> Void)
    ) async throws -> [Observation] {
        let call = try #require(CallRegistry.calls[contractCase.endpoint.id],
                                "no typed call registered for \(contractCase.endpoint.id)")
        let scenario = contractCase.scenario
        // A sequence is checked step by step, one request each.
        let steps = try scenario.sequence.map { sequence in
            try sequence.steps.map { step in try #require(contractCase.endpoint.scenario(named: step)) }
        } ?? [scenario]
        let session = MockSession(scenario: scenario.name)
        var observations: [Observation] = []
        for step in steps {
            let trace = UUID().uuidString
            // URLSession on Linux truncates timeouts to whole seconds; 1 s keeps no_response cases short. The
            // others are generous: the client's deadline counts time its task waits for a busy test pool.
            let timeout: TimeInterval = step.fault == .noResponse ? 1 : 30
            let (client, finish) = makeClient(session, [LiveServer.traceHeader: trace], timeout)
            defer { finish() }

            // WHEN
            let observation = await call.invoke(Services(client: client), [])
            observations.append(observation)

            // THEN the result is the contract's
            #expect(observation.caseName == step.expect.rawValue,
                    "\(contractCase.testDescription), step \(step.name): expected \(step.expect.rawValue), got \(observation.caseName)")
            try checkDetails(observation, step, call)

            // AND the server saw a conforming request for this endpoint and scenario
            let entry = try #require(LiveServer.entry(in: server, trace: trace), "no journal entry for the request")
            #expect(entry.endpoint == contractCase.endpoint.id)
            #expect(entry.scenario == step.name)
            #expect(entry.scenarioSequence == scenario.sequence.map { _ in scenario.name })
            #expect(entry.session == session.id)
            #expect(entry.violations == [], "the client broke the contract: \(entry.violations)")
            #expect(entry.status == step.status)
            #expect(entry.fault == step.fault)
        }
        return observations
    }

    private func checkDetails(_ observation: Observation, _ scenario: Scenario, _ call: ContractCall) throws {
        switch scenario.expect {
        case .success where call.fromStore:
            // The store answers (each case in its own session, from the seed): a value that decodes is the check.
            #expect(observation.value != nil, "the store's answer did not decode")
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

    /// The fixture the call's request selects (its fallback when that file does not exist), with a
    /// template's placeholders filled in from the values the call sends: the test's own substitution,
    /// independent of the server's renderer.
    private func fixtureData(_ scenario: Scenario, _ call: ContractCall) throws -> Data {
        guard let template = scenario.body else { return Data() }
        let candidates = [template, scenario.fallback].compactMap { $0 }.compactMap {
            FixturePath.resolve($0, parameters: call.parameters)
        }
        let path = try #require(candidates.first { FileManager.default.fileExists(atPath: Self.fixture($0)) },
                                "no fixture among \(candidates)")
        var text = try String(contentsOfFile: Self.fixture(path), encoding: .utf8)
        guard scenario.isTemplate else { return Data(text.utf8) }
        for (placeholder, value) in call.templateValues { text = text.replacingOccurrences(of: "{{\(placeholder)}}", with: value) }
        #expect(!text.contains("{{"), "a placeholder of \(path) has no value in the call's templateValues")
        return Data(text.utf8)
    }

    private static func fixture(_ path: String) -> String { ContractCatalog.fixturesDirectory + "/" + path }

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
