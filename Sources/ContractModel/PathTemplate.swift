/// A path such as `/api/products/{id}`: literal segments and named parameters.
package struct PathTemplate: Sendable, Hashable, CustomStringConvertible {
    package enum Segment: Sendable, Hashable {
        case literal(String)
        case parameter(String)
    }

    package let segments: [Segment]
    package let description: String

    /// Parses a template; `nil` unless it starts with `/` and every `{name}` is a whole segment.
    package init?(_ template: String) {
        guard template.hasPrefix("/") else { return nil }
        var segments: [Segment] = []
        // Bytes, not Characters: a thousand endpoints load in a few milliseconds.
        let open = UInt8(ascii: "{"), close = UInt8(ascii: "}")
        for part in template.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            let bytes = part.utf8
            if bytes.first == open && bytes.last == close && bytes.count > 2 {
                let name = part.dropFirst().dropLast()
                guard name.utf8.allSatisfy(Self.isASCIINameByte) || name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
                else { return nil }
                segments.append(.parameter(String(name)))
            } else {
                guard !bytes.contains(open) && !bytes.contains(close) else { return nil }
                segments.append(.literal(String(part)))
            }
        }
        self.segments = segments
        self.description = template
    }

    private static func isASCIINameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "_"): true
        default: false
        }
    }

    /// The names of the template's parameters, in order.
    package var parameterNames: [String] {
        segments.compactMap { if case .parameter(let name) = $0 { name } else { nil } }
    }

    /// Matches percent-decoded path segments; returns the parameters' values, or `nil`.
    package func match(_ pathSegments: [String]) -> [String: String]? {
        guard pathSegments.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, value) in zip(segments, pathSegments) {
            switch segment {
            case .literal(let literal):
                guard literal == value else { return nil }
            case .parameter(let name):
                guard !value.isEmpty else { return nil }
                parameters[name] = value
            }
        }
        return parameters
    }
}
