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
        for part in template.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            if part.hasPrefix("{") && part.hasSuffix("}") && part.count > 2 {
                let name = String(part.dropFirst().dropLast())
                guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
                segments.append(.parameter(name))
            } else {
                guard !part.contains("{") && !part.contains("}") else { return nil }
                segments.append(.literal(String(part)))
            }
        }
        self.segments = segments
        self.description = template
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
