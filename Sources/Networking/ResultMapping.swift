#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import MockProtocol

/// Decides what an HTTP outcome means: the one place where a status becomes a ``NetworkResult``.
///
/// ``StatusMapping`` implements DESIGN.md §3 and is the default; give ``APIClient`` another
/// conformance to treat, say, 409 as a success for one backend.
public protocol ResultMapping: Sendable {
    /// The result of a response that arrived.
    func result<Decoding: ResponseDecoding>(
        status: Int,
        body: Data,
        decoding: Decoding
    ) -> NetworkResult<Decoding.Value>

    /// The result of a call that produced no response.
    func result<Value>(for error: any Error) -> NetworkResult<Value>
}

extension ResultMapping {
    /// `networkFail`, with the error classified by ``TransportError/classify(_:)``.
    public func result<Value>(for error: any Error) -> NetworkResult<Value> {
        .networkFail(TransportError.classify(error))
    }
}

/// The default mapping: 2xx decodes (or is `pathErr`), 4xx is `requestErr`, 5xx is `serverErr`,
/// anything else is `networkFail`.
public struct StatusMapping: ResultMapping {
    /// The mapping of DESIGN.md §3.
    public init() {}

    /// 2xx decodes (or is `pathErr`), 4xx is `requestErr` with the server's message, 5xx is `serverErr`,
    /// anything else is `networkFail` of kind ``TransportError/Kind-swift.struct/unexpectedStatus``.
    public func result<Decoding: ResponseDecoding>(
        status: Int,
        body: Data,
        decoding: Decoding
    ) -> NetworkResult<Decoding.Value> {
        switch ExpectedResult.forStatus(status) {
        case .success, .pathErr:
            do {
                return .success(try decoding.decode(body, status: status))
            } catch {
                return .pathErr(DecodingFailure(status: status, underlying: error, body: [UInt8](body)))
            }
        case .requestErr:
            return .requestErr(status: status, message: Self.serverMessage(in: body))
        case .serverErr:
            return .serverErr(status: status)
        case .networkFail:
            return .networkFail(TransportError(kind: .unexpectedStatus, status: status))
        }
    }

    /// The envelope's `responseMsg` (or a `message` field) when the body is such a JSON object,
    /// else the body as text.
    static func serverMessage(in body: Data) -> String {
        if let message = try? JSONDecoder().decode(MessageFields.self, from: body).message {
            return message
        }
        return String(decoding: body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private struct MessageFields: Decodable {
        let message: String?

        enum CodingKeys: String, CodingKey { case responseMsg, message }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            message = try container.decodeIfPresent(String.self, forKey: .responseMsg)
                ?? container.decodeIfPresent(String.self, forKey: .message)
        }
    }
}
