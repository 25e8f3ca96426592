import ContractModel

/// A response body as a fixture file holds it: JSON (redacted, written indented with sorted keys) or
/// other bytes kept as they came, with an extension that fits their media type. A body that claims to
/// be JSON but does not parse as UTF-8 JSON is kept as bytes (`.bin`), never written as broken JSON.
enum FixtureBody: Hashable {
    case json(JSONValue)
    case raw([UInt8], extension: String)

    /// `nil` for an empty body: a scenario without a fixture.
    init?(bytes: [UInt8], contentType: String?, redactor: SecretRedactor) {
        guard !bytes.isEmpty else { return nil }
        let media = Self.mediaType(contentType)
        let parsed = try? JSONValue.parse(bytes)
        if media == "application/json" || media.hasSuffix("+json") || media.isEmpty, let parsed {
            self = .json(redactor.redact(parsed))
        } else if let parsed, case let redacted = redactor.redact(parsed), redacted != parsed {
            // JSON under another media type (`text/plain`): its secrets go too, the rest as JSON text.
            self = .raw(redacted.prettyPrinted(), extension: Self.fileExtension(media: media, bytes: bytes))
        } else if media == "application/x-www-form-urlencoded" {
            self = .raw(redactor.redactForm(bytes), extension: "txt")
        } else {
            self = .raw(bytes, extension: Self.fileExtension(media: media, bytes: bytes))
        }
    }

    var fileExtension: String {
        switch self {
        case .json: "json"
        case .raw(_, let fileExtension): fileExtension
        }
    }

    /// The file's bytes.
    var bytes: [UInt8] {
        switch self {
        case .json(let value): value.prettyPrinted()
        case .raw(let bytes, _): bytes
        }
    }

    /// The media type in lower case, without parameters (`text/html; charset=utf-8` is `text/html`).
    static func mediaType(_ contentType: String?) -> String {
        String(contentType?.split(separator: ";").first ?? "").trimmed(of: " \t").lowercased()
    }

    /// `.json` is kept for bodies that parse (the loader checks every `.json` fixture); text only when the
    /// bytes are UTF-8.
    private static func fileExtension(media: String, bytes: [UInt8]) -> String {
        let known = ["text/html": "html", "text/csv": "csv", "text/xml": "xml", "application/xml": "xml",
                     "text/plain": "txt", "image/png": "png", "image/jpeg": "jpg", "image/gif": "gif",
                     "application/pdf": "pdf"]
        let isText = media.hasPrefix("text/") || media.hasSuffix("xml")
        if isText && UTF8Text.decoded(bytes) == nil { return "bin" }
        return known[media] ?? (isText ? "txt" : "bin")
    }
}
