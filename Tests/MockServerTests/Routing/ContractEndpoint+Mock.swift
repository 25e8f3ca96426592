@testable import ContractModel
import Testing

extension ContractEndpoint {
    /// Endpoints read by the contract parser from one document, in the given order. Each route is
    /// `"<METHOD> <path template>"` and is also the endpoint's id, so a test can say which one matched.
    static func make(
        _ routes: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [ContractEndpoint] {
        let endpoints = routes.map { route in
            let parts = route.split(separator: " ", maxSplits: 1)
            return """
                {"id": "\(route)", "method": "\(parts[0])", "path": "\(parts.count > 1 ? parts[1] : "")",
                 "scenarios": [{"name": "success", "status": 200, "expect": "success"}]}
                """
        }
        let document = #"{"domain": "test", "endpoints": ["# + endpoints.joined(separator: ",\n") + "]}"
        var parser = ContractParser(file: "test.json")
        let contract = parser.parse(try JSONValue.parse(Array(document.utf8)))
        #expect(parser.problems.isEmpty, "\(parser.problems)", sourceLocation: sourceLocation)
        return try #require(contract, sourceLocation: sourceLocation).endpoints
    }
}
