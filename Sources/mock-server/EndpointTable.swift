import ContractModel
import MockProtocol

/// The endpoints and their scenarios, as the server prints them at start-up and `--list-endpoints`
/// prints them in full.
enum EndpointTable {
    /// Up to this many endpoints, start-up prints the table; beyond, a line that says how to see it.
    static let startUpLimit = 40

    /// The table, or for more than ``startUpLimit`` endpoints one summary line; then the admin API.
    static func startUp(_ contracts: ContractSet, serverScenario: String?) -> String {
        let count = contracts.endpoints.count
        let listing = count <= startUpLimit ? render(contracts, serverScenario: serverScenario)
            : "\(count) endpoints in \(plural(contracts.contracts.count, "contract")); "
                + "mock-server --list-endpoints prints them"
        return listing + "\nadmin API: " + AdminPath.routes.map { AdminPath.path($0.path) }.joined(separator: ", ")
    }

    /// One line per endpoint, in contract order, under a header, the columns aligned. Each endpoint's
    /// default scenario comes first: `serverScenario` (`--scenario`) where the endpoint has it, else the first
    /// without a `when`; a scenario with a `when` is marked, and its rules follow the table.
    static func render(_ contracts: ContractSet, serverScenario: String?) -> String {
        var rules: [String] = []
        let rows = contracts.endpoints.map { endpoint in
            var scenarios = endpoint.scenarios
            if let index = scenarios.firstIndex(where: { $0.name == serverScenario })
                ?? scenarios.firstIndex(where: { $0.when.isEmpty }) {
                scenarios.insert(scenarios.remove(at: index), at: 0)
            }
            for scenario in endpoint.scenarios where !scenario.when.isEmpty {
                let when = scenario.when.count == 1 ? scenario.when[0].json : .array(scenario.when.map(\.json))
                rules.append("  \(endpoint.id) \(scenario.name): " + String(decoding: when.serialized, as: UTF8.self))
            }
            return [endpoint.domain, endpoint.id, endpoint.method, endpoint.path.description,
                    scenarios.map { $0.when.isEmpty ? $0.name : $0.name + " (when)" }.joined(separator: ", ")]
        }
        let header = ["DOMAIN", "ENDPOINT", "METHOD", "PATH", "SCENARIOS (first is default)"]
        let widths = (0..<header.count).map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            // The last column unpadded: no line ends in spaces.
            zip(cells, widths).enumerated().map { index, cell in
                index == cells.count - 1 ? cell.0 : cell.0 + String(repeating: " ", count: cell.1 - cell.0.count)
            }.joined(separator: "  ")
        }
        let table = ([line(header)] + rows.map(line)).joined(separator: "\n")
        return rules.isEmpty ? table : table + "\n\nWHEN (a request these hold for plays the scenario, in this order):\n"
            + rules.joined(separator: "\n")
    }

    private static func plural(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)" + (count == 1 ? "" : "s")
    }
}
