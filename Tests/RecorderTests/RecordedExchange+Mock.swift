import Recorder

extension RecordedExchange {
    /// An exchange with defaults: `GET`, no query, no request headers or body, a 200 JSON answer.
    static func make(
        _ path: String,
        method: String = "GET",
        query: String? = nil,
        requestHeaders: [Field] = [],
        requestBody: String = "",
        status: Int = 200,
        contentType: String? = "application/json",
        responseHeaders: [Field] = [],
        body: String = ""
    ) -> RecordedExchange {
        RecordedExchange(method: method, path: path, query: query, requestHeaders: requestHeaders,
                         requestBody: Array(requestBody.utf8), status: status,
                         responseHeaders: contentType.map { [Field(name: "Content-Type", value: $0)] + responseHeaders }
                             ?? responseHeaders,
                         responseBody: Array(body.utf8))
    }
}
