import ContractModel
import MockServer
import Testing

/// `--scenario` is checked against the contracts when the server is made, before any socket.
@Suite(.timeLimit(.minutes(2)))
struct ServerWideScenarioTests {
    @Test func unknownServerWideScenario_FailsAtStart() {
        var configuration = MockServer.Configuration(port: 0, contractsDirectory: Repository.contracts,
                                                     fixturesDirectory: Repository.fixtures)
        configuration.scenario = "nonexistent"
        let error = #expect(throws: ContractLoadError.self) { _ = try MockServer(configuration: configuration) }
        #expect(error?.problems.first?.reason.contains("no endpoint has a scenario \"nonexistent\"") == true)
    }
}
