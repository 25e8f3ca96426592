import ContractModel
import HTTPCore

/// A scenario's response head, encoded once at start-up rather than on every request: the status
/// line and every header field except the framing ones, in a variant with and without a body.
struct PreparedScenario: Sendable {
    let status: HTTPStatus
    let headWithBody: [UInt8]
    let headWithoutBody: [UInt8]

    init(endpoint: ContractEndpoint, scenario: Scenario) {
        status = HTTPStatus(scenario.status ?? 200)
        var fields = scenario.headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
        if status.code == 401 && !scenario.headers.keys.contains(where: { $0.lowercased() == "www-authenticate" }) {
            // A challenge URLSession can answer; `Basic` would hang it on Linux.
            fields.append(("WWW-Authenticate", "Bearer"))
        }
        if !scenario.headers.keys.contains(where: { $0.lowercased() == "cache-control" }) {
            // URLCache and browsers must never replay a mock answer the next scenario would change.
            fields.append(("Cache-Control", "no-store"))
        }
        fields.append(("X-Mock-Endpoint", endpoint.id))
        fields.append(("X-Mock-Scenario", scenario.name))
        let contentType = scenario.contentType ?? endpoint.contentType
        headWithBody = HTTPResponseEncoder.statusAndFields(status, [("Content-Type", contentType)] + fields)
        headWithoutBody = HTTPResponseEncoder.statusAndFields(status, fields)
    }

    func response(body: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: status, head: body.isEmpty ? headWithoutBody : headWithBody, body: body)
    }
}
