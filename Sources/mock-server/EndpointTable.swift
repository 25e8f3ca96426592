import ContractModel

/// The start-up table of endpoints and their scenarios.
enum EndpointTable {
    static func render(_ contracts: ContractSet) -> String {
        let rows = contracts.endpoints.map { endpoint in
            [endpoint.domain, endpoint.id, endpoint.method, endpoint.path.description,
             endpoint.scenarios.map(\.name).joined(separator: ", ")]
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
            + "\nadmin API: /__mock/contracts, /__mock/scenarios/{id}, /__mock/journal, /__mock/health"
    }
}
