import ContractModel
import MockProtocol

/// What one recorded response amounts to in a contract: status, kept headers, content type and body.
/// Two exchanges with equal outcomes are one scenario.
struct RecordedOutcome: Hashable {
    let status: Int
    let headers: [String: String]
    /// The response's media type as sent; `nil` when it sent none.
    let contentType: String?
    /// `nil` for an empty body.
    let body: FixtureBody?

    /// What a path template can serve alike for many ids: one status, content type and kind of body.
    struct Shape: Hashable {
        let status: Int
        let contentType: String?
        let fileExtension: String?
    }

    var shape: Shape { Shape(status: status, contentType: contentType, fileExtension: body?.fileExtension) }

    /// The client result the status maps to (``MockProtocol/ExpectedResult/forStatus(_:)``): a recorded 2xx
    /// decoded in the app, so it is `success`.
    var expectation: Expectation { ExpectedResult.forStatus(status) }

    /// The content type a contract states for this body: as sent, or, when it sent none, `application/json` for
    /// a JSON body and `application/octet-stream` for any other. `nil` without a body.
    var fixtureContentType: String? {
        switch body {
        case nil: nil
        case .json?: contentType ?? "application/json"
        case .raw?: contentType ?? "application/octet-stream"
        }
    }
}
