/// Why an import stopped, with where: the file and a JSON pointer into it (`#/paths/~1pets/get`), or a
/// line and column for text that does not parse, or every problem the written contracts would have.
/// Nothing is written when an import throws it.
package struct OpenAPIImportError: Error, CustomStringConvertible {
    /// One line per problem, each naming its place.
    package let lines: [String]

    package init(lines: [String]) { self.lines = lines }

    /// A problem at a JSON pointer of the document: `pets.json: #/paths/~1pets/get: ...`.
    static func at(_ file: String, _ pointer: String, _ message: String) -> OpenAPIImportError {
        OpenAPIImportError(lines: ["\(file): #\(pointer): \(message)"])
    }

    package var description: String { lines.joined(separator: "\n") }
}

/// JSON pointers (RFC 6901) as the import builds and prints them.
enum Pointer {
    /// `base` extended by one reference token, escaped: `("/paths", "/pets")` → `/paths/~1pets`.
    static func appending(_ base: String, _ token: String) -> String {
        base + "/" + token.replacing("~", with: "~0").replacing("/", with: "~1")
    }

    /// The pointer a `$ref` names inside the document (`#/components/schemas/Pet` → `/components/schemas/Pet`),
    /// percent-escapes decoded; `nil` for a reference to another document.
    static func target(of reference: String) -> String? {
        guard reference.hasPrefix("#") else { return nil }
        return percentDecoded(String(reference.dropFirst()))
    }

    private static func percentDecoded(_ text: String) -> String {
        guard text.contains("%") else { return text }
        var bytes: [UInt8] = []
        var index = text.utf8.startIndex
        let utf8 = text.utf8
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%"), let high = utf8.index(index, offsetBy: 1, limitedBy: utf8.endIndex),
               let low = utf8.index(index, offsetBy: 2, limitedBy: utf8.endIndex), low < utf8.endIndex,
               let value = UInt8(String(decoding: [utf8[high], utf8[low]], as: UTF8.self), radix: 16) {
                bytes.append(value)
                index = utf8.index(after: low)
            } else {
                bytes.append(byte)
                index = utf8.index(after: index)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
