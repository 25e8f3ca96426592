/// Finds the path templates in recorded paths: a segment becomes a parameter when it looks like an
/// identifier (``IdentifierSegment``) and takes at least two values among paths that have the same
/// number of segments and identifiers in the same places, whatever the method.
///
/// `/v1/items/1` and `/v1/items/2` give `/v1/items/{id}`; `/v1/items/1` alone stays literal; in
/// `/users/7/orders/1` and `/users/7/orders/2` only the varying segment becomes `{id}`.
enum PathTemplating {
    /// The template of each distinct path (percent-decoded segments).
    static func templates(for paths: Set<[String]>) -> [[String]: RecordedTemplate] {
        var groups: [[String?]: [[String]]] = [:]
        for path in paths {
            // Identifiers are masked, so paths differing only there fall into one group.
            groups[path.map { IdentifierSegment.isIdentifier($0) ? nil : $0 }, default: []].append(path)
        }
        var result: [[String]: RecordedTemplate] = [:]
        for (mask, members) in groups {
            let template = template(mask: mask, members: members)
            for path in members { result[path] = template }
        }
        return result
    }

    private static func template(mask: [String?], members: [[String]]) -> RecordedTemplate {
        var segments: [RecordedTemplate.Segment] = []
        var varying: [Int] = []
        for (position, literal) in mask.enumerated() {
            let values = Set(members.map { $0[position] })
            if let literal {
                segments.append(.literal(literal))
            } else if values.count < 2, let value = values.first {
                segments.append(.literal(value))
            } else {
                segments.append(.parameter(name: "", kind: IdentifierSegment.kind(of: values)))
                varying.append(position)
            }
        }
        var used: Set<String> = []
        for position in varying.reversed() {
            var name = position == varying.last ? "id" : parameterName(after: segments[..<position])
            var counter = 2
            while used.contains(name) { name = "id\(counter)"; counter += 1 }
            used.insert(name)
            if case .parameter(_, let kind) = segments[position] { segments[position] = .parameter(name: name, kind: kind) }
        }
        return RecordedTemplate(segments: segments)
    }

    /// `userId` after `users`: the literal before the parameter, singular, camel-cased with `Id`.
    private static func parameterName(after segments: ArraySlice<RecordedTemplate.Segment>) -> String {
        guard case .literal(let text)? = segments.last else { return "id" }
        var word = String(text.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) })
        if word.count > 3 && word.hasSuffix("s") { word.removeLast() }
        guard let first = word.first, first.isLetter else { return "id" }
        return first.lowercased() + word.dropFirst() + "Id"
    }
}
