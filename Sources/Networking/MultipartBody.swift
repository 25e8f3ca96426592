#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// A `multipart/form-data` body (RFC 7578): text fields, JSON parts and files.
///
/// ```swift
/// .multipart([
///     .json(name: "params", data: paramsJSON),
///     .file(name: "images", fileName: "cup.jpg", mimeType: "image/jpeg", data: jpeg),
/// ])
/// ```
public struct MultipartBody: RequestBody {
    /// One part of the body.
    public struct Part: Sendable, Hashable {
        /// The form field's name.
        public let name: String
        /// The file name, for a file part.
        public let fileName: String?
        /// The part's `Content-Type`, if any.
        public let contentType: String?
        /// The part's bytes.
        public let data: Data

        /// A part from its fields; the static factories cover the usual kinds.
        public init(name: String, fileName: String? = nil, contentType: String? = nil, data: Data) {
            self.name = name
            self.fileName = fileName
            self.contentType = contentType
            self.data = data
        }

        /// A plain text field.
        public static func text(name: String, value: String) -> Part {
            Part(name: name, data: Data(value.utf8))
        }

        /// A JSON document as a part with `Content-Type: application/json`.
        public static func json(name: String, data: Data) -> Part {
            Part(name: name, contentType: "application/json", data: data)
        }

        /// A file with its name and MIME type.
        public static func file(name: String, fileName: String, mimeType: String, data: Data) -> Part {
            Part(name: name, fileName: fileName, contentType: mimeType, data: data)
        }
    }

    /// The parts, in the order they are sent.
    public let parts: [Part]
    private let fixedBoundary: String?

    /// - Parameters:
    ///   - parts: The parts, sent in this order.
    ///   - boundary: A fixed boundary, for byte-exact tests. By default a random one is drawn and
    ///     drawn again in the unlikely case that it occurs inside a part.
    public init(_ parts: [Part], boundary: String? = nil) {
        self.parts = parts
        self.fixedBoundary = boundary
    }

    /// Sets the body and `Content-Type: multipart/form-data; boundary=…`.
    /// - Throws: ``RequestBuildError/boundaryCollision(_:)`` when a fixed boundary occurs inside a part.
    public func apply(to request: inout URLRequest) throws {
        let boundary = try chooseBoundary()
        request.httpBody = encode(boundary: boundary)
        request.setValue("multipart/form-data; boundary=\(boundary)", forHTTPHeaderField: "Content-Type")
    }

    /// The body bytes for a given boundary.
    func encode(boundary: String) -> Data {
        var body = Data()
        for part in parts {
            body.append("--\(boundary)\r\n")
            var disposition = "Content-Disposition: form-data; name=\"\(Self.quoted(part.name))\""
            if let fileName = part.fileName {
                disposition += "; filename=\"\(Self.quoted(fileName))\""
            }
            body.append(disposition + "\r\n")
            if let contentType = part.contentType {
                body.append("Content-Type: \(contentType)\r\n")
            }
            body.append("\r\n")
            body.append(part.data)
            body.append("\r\n")
        }
        body.append("--\(boundary)--\r\n")
        return body
    }

    private func chooseBoundary() throws -> String {
        if let fixedBoundary {
            guard !collides(fixedBoundary) else { throw RequestBuildError.boundaryCollision(fixedBoundary) }
            return fixedBoundary
        }
        while true {
            let candidate = "Boundary-" + UUID().uuidString
            if !collides(candidate) { return candidate }
        }
    }

    private func collides(_ boundary: String) -> Bool {
        let marker = Data(("--" + boundary).utf8)
        return parts.contains { part in
            part.data.range(of: marker) != nil || part.name.contains(boundary)
                || (part.fileName?.contains(boundary) ?? false)
        }
    }

    /// Escapes a quoted-string parameter as browsers do (WHATWG): `"` → `%22`, CR/LF → `%0D`/`%0A`.
    private static func quoted(_ value: String) -> String {
        value.replacingOccurrences(of: "\"", with: "%22")
            .replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }
}

extension RequestBody where Self == MultipartBody {
    /// A multipart/form-data body of the given parts.
    public static func multipart(_ parts: [MultipartBody.Part], boundary: String? = nil) -> MultipartBody {
        MultipartBody(parts, boundary: boundary)
    }
}

extension Data {
    fileprivate mutating func append(_ string: String) {
        append(contentsOf: Array(string.utf8))
    }
}
