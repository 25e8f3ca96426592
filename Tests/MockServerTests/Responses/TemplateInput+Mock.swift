@testable import HTTPCore
@testable import MockServer

extension TemplateInput {
    /// A request as a template sees it; headers are given as pairs, in order.
    static func make(
        pathParameters: [String: String] = [:],
        query: [(name: String, value: String)] = [],
        headers: [(String, String)] = [],
        body: String = "",
        contentType: String? = nil,
        counter: Int = 1,
        now: (seconds: Int, milliseconds: Int) = (784_111_777, 0)
    ) -> TemplateInput {
        var fields = HTTPHeaders()
        for (name, value) in headers { fields.append(name: name, value: value) }
        return TemplateInput(pathParameters: pathParameters, query: query, headers: fields, body: Array(body.utf8),
                             contentType: contentType, counter: counter, now: now)
    }
}
