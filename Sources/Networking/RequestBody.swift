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
    public init() {}
    public func apply(to request: inout URLRequest) throws {}
}

/// Raw bytes with an explicit content type.
public struct DataBody: RequestBody {
    public let data: Data
    public let contentType: String

    public init(_ data: Data, contentType: String) {
        self.data = data
        self.contentType = contentType
    }

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
    ///   - encoder: Configures keys, dates and formatting, for example `.convertToSnakeCase`.
    public init<Value: Encodable & Sendable>(_ value: Value, encoder: JSONEncoder = JSONEncoder()) {
        let configuration = JSONEncoderConfiguration(encoder)
        encodeValue = { try configuration.makeEncoder().encode(value) }
    }

    public func apply(to request: inout URLRequest) throws {
        do {
            request.httpBody = try encodeValue()
        } catch {
            throw RequestBuildError.bodyEncodingFailed(error)
        }
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    }
}

/// The settings of a `JSONEncoder`, captured as values so a body strategy stays `Sendable`.
struct JSONEncoderConfiguration: @unchecked Sendable {
    // @unchecked: the strategies are enums whose `.custom` cases hold closures that Foundation does
    // not mark Sendable; they are only read, never mutated, after capture.
    let keyEncodingStrategy: JSONEncoder.KeyEncodingStrategy
    let dateEncodingStrategy: JSONEncoder.DateEncodingStrategy
    let outputFormatting: JSONEncoder.OutputFormatting

    init(_ encoder: JSONEncoder) {
        keyEncodingStrategy = encoder.keyEncodingStrategy
        dateEncodingStrategy = encoder.dateEncodingStrategy
        outputFormatting = encoder.outputFormatting
    }

    func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = keyEncodingStrategy
        encoder.dateEncodingStrategy = dateEncodingStrategy
        encoder.outputFormatting = outputFormatting
        return encoder
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
