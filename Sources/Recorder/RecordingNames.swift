/// The names the recorder gives what it writes: domains, endpoint ids and fixture folders, each
/// derived from the path alone so that recording the same traffic again gives the same names.
enum RecordingNames {
    /// The domain of a path, which names its contract file (`<domain>.json`): the first literal segment
    /// that is not a version (`v1`, `v2`…) or `api`/`rest`, lower-cased, with anything but letters,
    /// digits, `-` and `_` replaced by `_`. `/v1/items/{id}` and `/api/v2/items` are `items`,
    /// `/auth/login` is `auth`; a path without such a segment (`/`, `/v1/{id}`) is `root`.
    static func domain(of template: RecordedTemplate) -> String {
        for case .literal(let text) in template.segments where !isPrefix(text) {
            let name = sanitized(text.lowercased())
            if !name.isEmpty { return name }
        }
        return "root"
    }

    /// An endpoint id: the method in lower case, then each segment capitalised, a parameter as
    /// `By<Name>`: `getV1ItemsById`, `postAuthLogin`, `getV1Items99`, `getRoot` for `/`.
    static func endpointID(method: String, template: RecordedTemplate) -> String {
        var id = method.lowercased()
        for segment in template.segments {
            switch segment {
            case .literal(let text): id += capitalised(sanitized(text, replacement: ""))
            case .parameter(let name, _): id += "By" + capitalised(name)
            }
        }
        return id == method.lowercased() ? id + "Root" : id
    }

    /// The fixture folder of an endpoint: its literal segments as folders (`v1/items` for
    /// `/v1/items/{id}`), `root` when it has none.
    static func fixtureFolder(of template: RecordedTemplate) -> String {
        let folders = template.literals.map { sanitized($0) }.filter { !$0.isEmpty }
        return folders.isEmpty ? "root" : folders.joined(separator: "/")
    }

    private static func isPrefix(_ segment: String) -> Bool {
        let lower = segment.lowercased()
        if lower == "api" || lower == "rest" || lower.isEmpty { return true }
        return lower.count > 1 && lower.hasPrefix("v") && lower.dropFirst().allSatisfy(\.isASCII)
            && lower.dropFirst().allSatisfy(\.isNumber)
    }

    /// Letters, digits, `-` and `_` (ASCII) kept, anything else replaced; never starting with a dot.
    static func sanitized(_ text: String, replacement: String = "_") -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            let keep = scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                || scalar == "-" || scalar == "_")
            result += keep ? String(scalar) : replacement
        }
        return result
    }

    private static func capitalised(_ text: String) -> String {
        guard let first = text.first else { return "" }
        return first.uppercased() + text.dropFirst()
    }
}
