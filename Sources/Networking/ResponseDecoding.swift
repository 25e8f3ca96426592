#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// A strategy that turns a 2xx body into the endpoint's response value.
///
/// Built-in strategies: `.json(_:decoder:)`, `.envelope(_:decoder:)`, `.envelopeWithoutData`,
/// `.text` and `.empty`. A throw becomes ``NetworkResult/pathErr(_:)``.
public protocol ResponseDecoding<Value>: Sendable {
    /// What a 2xx body becomes.
    associatedtype Value
    /// Reads a 2xx body.
    /// - Parameters:
    ///   - body: The response body, possibly empty.
    ///   - status: The response's status (200...299).
    /// - Returns: The response value.
    /// - Throws: Any error, when the body is not what the endpoint promises; the client reports it as
    ///   ``NetworkResult/pathErr(_:)``.
    func decode(_ body: Data, status: Int) throws -> Value
}

/// A raw JSON body decoded as `Value`.
public struct JSONResponse<Value: Decodable>: ResponseDecoding {
    private let decoder: JSONDecoder

    /// - Parameters:
    ///   - type: The type the body decodes as.
    ///   - decoder: Used as it is, every setting included (keys, dates, data, non-conforming floats,
    ///     `userInfo`). It is kept, not copied: configure it before handing it over.
    public init(_ type: Value.Type = Value.self, decoder: JSONDecoder = JSONDecoder()) {
        self.decoder = decoder
    }

    /// Decodes the body as `Value`.
    public func decode(_ body: Data, status: Int) throws -> Value {
        try decoder.decode(Value.self, from: body)
    }
}

/// The envelope a server wraps its payloads in: `{"status": 200, "responseMsg": "…", "data": …}`.
public struct Envelope<Payload: Decodable>: Decodable {
    /// The status the server repeats in the body.
    public let status: Int?
    /// The server's message for people.
    public let responseMsg: String?
    /// The payload; `nil` when missing or `null`.
    public let data: Payload?
}

/// Why an envelope could not give a payload.
public enum EnvelopeError: Error, Equatable {
    /// The envelope's `data` is missing or `null` where the endpoint promises a value.
    case missingData
}

/// An enveloped JSON body whose `data` decodes as `Value`; a missing `data` is a decoding failure.
public struct EnvelopeResponse<Value: Decodable>: ResponseDecoding {
    private let decoder: JSONDecoder

    /// - Parameters:
    ///   - type: The type the envelope's `data` decodes as.
    ///   - decoder: Used as it is, every setting included; kept, not copied.
    public init(_ type: Value.Type = Value.self, decoder: JSONDecoder = JSONDecoder()) {
        self.decoder = decoder
    }

    /// Decodes the envelope and returns its `data`.
    /// - Throws: The decoder's error, or ``EnvelopeError/missingData`` when `data` is missing or `null`.
    public func decode(_ body: Data, status: Int) throws -> Value {
        let envelope = try decoder.decode(Envelope<Value>.self, from: body)
        guard let data = envelope.data else { throw EnvelopeError.missingData }
        return data
    }
}

/// An enveloped JSON body that carries no payload the caller needs; only its shape is checked.
public struct EnvelopeWithoutDataResponse: ResponseDecoding {
    /// The strategy.
    public init() {}

    /// Checks that the body is an envelope.
    public func decode(_ body: Data, status: Int) throws {
        _ = try JSONDecoder().decode(Envelope<IgnoredPayload>.self, from: body)
    }

    private struct IgnoredPayload: Decodable {
        init(from decoder: any Decoder) throws {}
    }
}

/// A `text/plain` body as a `String`. An empty body or one that is not UTF-8 is a decoding failure.
public struct TextResponse: ResponseDecoding {
    /// The strategy.
    public init() {}

    /// The body as UTF-8 text.
    /// - Throws: ``TextDecodingError/notText(byteCount:)`` for an empty body or one that is not UTF-8.
    public func decode(_ body: Data, status: Int) throws -> String {
        guard !body.isEmpty, let text = String(data: body, encoding: .utf8) else {
            throw TextDecodingError.notText(byteCount: body.count)
        }
        return text
    }
}

/// Why a text body did not decode.
public enum TextDecodingError: Error, Equatable {
    /// The body is empty or not UTF-8; it had this many bytes.
    case notText(byteCount: Int)
}

/// No response value: any 2xx succeeds, whatever its body.
public struct EmptyResponse: ResponseDecoding {
    /// The strategy.
    public init() {}
    /// Accepts any body.
    public func decode(_ body: Data, status: Int) throws {}
}

extension ResponseDecoding {
    /// A raw JSON body decoded as `type`.
    public static func json<V: Decodable>(_ type: V.Type, decoder: JSONDecoder = JSONDecoder()) -> Self
    where Self == JSONResponse<V> { JSONResponse(type, decoder: decoder) }

    /// An enveloped body whose `data` decodes as `type`.
    public static func envelope<V: Decodable>(_ type: V.Type, decoder: JSONDecoder = JSONDecoder()) -> Self
    where Self == EnvelopeResponse<V> { EnvelopeResponse(type, decoder: decoder) }
}

extension ResponseDecoding where Self == EnvelopeWithoutDataResponse {
    /// An enveloped body with no payload.
    public static var envelopeWithoutData: Self { .init() }
}

extension ResponseDecoding where Self == TextResponse {
    /// A non-empty UTF-8 text body.
    public static var text: Self { .init() }
}

extension ResponseDecoding where Self == EmptyResponse {
    /// No response value.
    public static var empty: Self { .init() }
}
