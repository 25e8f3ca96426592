/// Media types as OpenAPI's `content` keys name them.
enum MediaType {
    /// `Application/JSON; charset=utf-8` → `application/json`.
    static func essence(_ mediaType: String) -> String {
        let type = mediaType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return String(type.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
            .lowercased()
    }

    /// JSON, or a structured syntax suffixed `+json` (`application/problem+json`).
    static func isJSON(_ mediaType: String) -> Bool {
        let type = essence(mediaType)
        return type == "application/json" || type.hasSuffix("+json")
    }

    static func isText(_ mediaType: String) -> Bool {
        essence(mediaType).hasPrefix("text/")
    }
}
