/// The path template one or more recorded paths share: literal segments, and typed parameters where an
/// identifier varied between requests.
struct RecordedTemplate: Hashable, Comparable {
    enum Segment: Hashable {
        case literal(String)
        case parameter(name: String, kind: IdentifierSegment)
    }

    let segments: [Segment]

    /// As a contract writes it: `/v1/items/{id}`.
    var path: String {
        "/" + segments.map { segment in
            switch segment {
            case .literal(let text): text
            case .parameter(let name, _): "{\(name)}"
            }
        }.joined(separator: "/")
    }

    var parameters: [(name: String, kind: IdentifierSegment)] {
        segments.compactMap { if case .parameter(let name, let kind) = $0 { (name, kind) } else { nil } }
    }

    var literals: [String] {
        segments.compactMap { if case .literal(let text) = $0 { text } else { nil } }
    }

    /// The parameters' values in a concrete path the template matched, by name.
    func values(in concrete: [String]) -> [String: String] {
        var values: [String: String] = [:]
        for (segment, value) in zip(segments, concrete) {
            if case .parameter(let name, _) = segment { values[name] = value }
        }
        return values
    }

    /// A template of `concrete` with no parameter at all (a path served on its own).
    static func literal(_ concrete: [String]) -> RecordedTemplate {
        RecordedTemplate(segments: concrete.map(Segment.literal))
    }

    static func < (left: RecordedTemplate, right: RecordedTemplate) -> Bool { left.path < right.path }
}
