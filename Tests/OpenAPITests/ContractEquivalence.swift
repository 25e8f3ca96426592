import ContractModel
import Foundation

/// Contract sets as comparable text, endpoint by endpoint and scenario by scenario, so that a failed
/// comparison shows the line that differs.
enum ContractEquivalence {
    static func lines(of endpoint: ContractEndpoint) -> [String] {
        let request = endpoint.request
        var lines = [
            "\(endpoint.id): domain \(endpoint.domain), \(endpoint.method) \(endpoint.path), content \(endpoint.contentType)",
            "\(endpoint.id): description \(endpoint.description ?? "-")",
            "\(endpoint.id): query \(sorted(request.query)); headers \(sorted(request.headers)); path \(sorted(request.pathParams))",
            "\(endpoint.id): bearer \(request.bearerAuth); body \(request.body.map { "\($0.kind) \(sorted($0.fields))" } ?? "-")",
            "\(endpoint.id): whenState \(endpoint.whenState.sorted { $0.key < $1.key })",
            "\(endpoint.id): resource \(endpoint.resource.map { "\($0.id).\($0.operation)" } ?? "-")",
            "\(endpoint.id): rateLimit \(endpoint.rateLimit.map { "\($0)" } ?? "-")",
        ]
        for scenario in endpoint.scenarios {
            lines.append("\(endpoint.id).\(scenario.name): status \(scenario.status.map(String.init) ?? "-"), body "
                + "\(scenario.body ?? "-"), fallback \(scenario.fallback ?? "-"), template \(scenario.isTemplate), headers "
                + "\(scenario.headers.sorted { $0.key < $1.key }), content \(scenario.contentType ?? "-"), fault "
                + "\(scenario.fault?.rawValue ?? "-"), delay \(scenario.delayMs), hold \(scenario.holdMs), expect "
                + "\(scenario.expect), description \(scenario.description ?? "-"), sequence "
                + "\(scenario.sequence.map { "\($0.steps) \($0.afterLast)" } ?? "-"), setState \(scenario.setState ?? "-"), latency "
                + "\(scenario.latency?.text ?? "-"), bandwidth \(scenario.bandwidth?.text ?? "-"), dribble "
                + "\(scenario.dribble.map { "\($0)" } ?? "-")")
        }
        return lines
    }

    static func lines(of contract: Contract) -> [String] {
        ["\(contract.domain): file \(URL(fileURLWithPath: contract.file).lastPathComponent), states \(contract.states), "
            + "description \(contract.description ?? "-")"]
            + contract.resources.map { resource in
                "\(resource.id): path \(resource.path), id \(resource.idField) \(resource.idType), fields "
                    + "\(sorted(resource.fields)), seed \(resource.seedFile ?? "-"), shape \(resource.shape), max "
                    + "\(resource.maximumItems), description \(resource.description ?? "-")"
            }
            + contract.endpoints.flatMap(lines(of:))
    }

    private static func sorted(_ types: [String: FieldType]) -> String {
        types.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
    }

    /// The fixture's content: its JSON for a `.json` file that parses, else its bytes.
    static func fixture(_ relativePath: String, in root: String) -> String {
        guard let data = FileManager.default.contents(atPath: root + "/" + relativePath) else { return "missing" }
        if relativePath.hasSuffix(".json"), let json = try? JSONValue.parse(data) {
            return "json " + String(decoding: json.serialized, as: UTF8.self)
        }
        return "bytes " + data.base64EncodedString()
    }
}
