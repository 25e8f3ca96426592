#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// A strategy that puts an endpoint's parameters into a request: in its query or in its body.
///
/// Each format is its own type, so a new one is added by conforming a new type, without touching
/// ``RequestBuilder``. The built-in strategies are reachable as static members:
/// `.plain`, `.query(_:)`, `.json(_:encoder:)`, `.form(_:)`, `.multipart(_:)` and
/// `.data(_:contentType:)`.
public protocol RequestBody: Sendable {
    /// Writes the parameters into `request`: its URL's query, or its body and `Content-Type`.
    /// - Throws: ``RequestBuildError`` or an encoding error when the parameters cannot be encoded.
    func apply(to request: inout URLRequest) throws
}

/// No parameters and no body.
public struct PlainBody: RequestBody {
    /// No parameters.
    public init() {}
    /// Leaves the request as it is.
    public func apply(to request: inout URLRequest) throws {}
}

/// Raw bytes with an explicit content type.
public struct DataBody: RequestBody {
    /// The bytes sent.
    public let data: Data
    /// The value of the `Content-Type` header.
    public let contentType: String

    /// Bytes sent as they are, labelled with `contentType`.
    public init(_ data: Data, contentType: String) {
        self.data = data
        self.contentType = contentType
    }

    /// Sets the body and its `Content-Type`.
    public func apply(to request: inout URLRequest) throws {
        request.httpBody = data
        request.setValue(contentType, forHTTPHeaderField: "Content-Type")
    }
}

/// Any `Encodable` value as a JSON body with `Content-Type: application/json`.
public struct JSONBody: RequestBody {
    private let encodeValue: @Sendable () throws -> Data

    /// - Parameters:
    ///   - value: The value to encode.
    ///   - encoder: Used as it is, every setting included (keys, dates, data, non-conforming floats,
    ///     formatting, `userInfo`). It is kept, not copied: configure it before handing it over.
    public init<Value: Encodable & Sendable>(_ value: Value, encoder: JSONEncoder = JSONEncoder()) {
        encodeValue = { try encoder.encode(value) }
    }

    /// Encodes the value and sets `Content-Type: application/json`.
    /// - Throws: ``RequestBuildError/bodyEncodingFailed(_:)`` when the encoder throws.
    public func apply(to request: inout URLRequest) throws {
        do {
            request.httpBody = try encodeValue()
        } catch {
            throw RequestBuildError.bodyEncodingFailed(error)
        }
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    }
}

extension RequestBody where Self == PlainBody {
    /// No parameters.
    public static var plain: PlainBody { PlainBody() }
}

extension RequestBody where Self == DataBody {
    /// Raw bytes sent as they are, labelled with `contentType`.
    public static func data(_ data: Data, contentType: String) -> DataBody {
        DataBody(data, contentType: contentType)
    }
}

extension RequestBody where Self == JSONBody {
    /// `value` encoded as JSON by `encoder`.
    public static func json<Value: Encodable & Sendable>(
        _ value: Value,
        encoder: JSONEncoder = JSONEncoder()
    ) -> JSONBody {
        JSONBody(value, encoder: encoder)
    }
}
