#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPCore

/// JSON bodies the server writes itself: errors in the same envelope the question API uses
/// (`status`, `responseMsg`, `data`), so a client's requestErr carries the message.
package enum ServerJSON {
    struct ErrorBody: Encodable {
        let status: Int
        let responseMsg: String
        var violations: [String]? = nil
        var validScenarios: [String]? = nil
        /// For a 502: the backend's base URL and why it gave no answer.
        var upstream: String? = nil
        var upstreamError: String? = nil

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(status, forKey: .status)
            try container.encode(responseMsg, forKey: .responseMsg)
            try container.encodeIfPresent(violations, forKey: .violations)
            try container.encodeIfPresent(validScenarios, forKey: .validScenarios)
            try container.encodeIfPresent(upstream, forKey: .upstream)
            try container.encodeIfPresent(upstreamError, forKey: .upstreamError)
            try container.encodeNil(forKey: .data)
        }

        enum CodingKeys: String, CodingKey { case status, responseMsg, violations, validScenarios, upstream, upstreamError, data }
    }

    package static func error(
        _ status: HTTPStatus,
        _ message: String,
        violations: [String]? = nil,
        validScenarios: [String]? = nil,
        upstream: String? = nil,
        upstreamError: String? = nil,
        headers: [(name: String, value: String)] = []
    ) -> HTTPResponse {
        let body = ErrorBody(status: status.code, responseMsg: message, violations: violations,
                             validScenarios: validScenarios, upstream: upstream, upstreamError: upstreamError)
        return .json(status, encode(body), headers: headers)
    }

    package static func encode(_ value: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding our own plain structs cannot fail; an empty object keeps the response valid if it ever did.
        return (try? Array(encoder.encode(value))) ?? Array("{}".utf8)
    }
}
