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
    /// default scenario comes first: `serverScenario` (`--scenario`) where the endpoint has it.
    static func render(_ contracts: ContractSet, serverScenario: String?) -> String {
        let rows = contracts.endpoints.map { endpoint in
            var names = endpoint.scenarios.map(\.name)
            if let serverScenario, let index = names.firstIndex(of: serverScenario) {
                names.insert(names.remove(at: index), at: 0)
            }
            return [endpoint.domain, endpoint.id, endpoint.method, endpoint.path.description,
                    names.joined(separator: ", ")]
        }
        let header = ["DOMAIN", "ENDPOINT", "METHOD", "PATH", "SCENARIOS (first is default)"]
        let widths = (0..<header.count).map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            zip(cells, widths).map { $0 + String(repeating: " ", count: $1 - $0.count) }
                .joined(separator: "  ")
        }
        return ([line(header)] + rows.map(line)).joined(separator: "\n")
    }

    private static func plural(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)" + (count == 1 ? "" : "s")
    }
}
