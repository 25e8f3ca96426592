/// Resolves a scenario's fixture path (`products/{id}.json`) to a file inside the fixtures folder.
package enum FixturePath {
    /// The `{name}` placeholders of a fixture path.
    package static func placeholders(in path: String) -> [String] {
        // Most paths have none: a byte scan answers them without touching Characters.
        guard path.utf8.contains(UInt8(ascii: "{")) else { return [] }
        var names: [String] = []
        var rest = Substring(path)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            names.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    /// A fixture path with its placeholders filled in, or why it cannot be.
    package enum Filled: Equatable {
        case path(String)
        /// The request carries no value for this placeholder (an optional query parameter).
        case absent(String)
        /// This placeholder's value cannot be part of a file name.
        case unsafe(String)
    }

    /// Substitutes parameter values (path parameters, then query parameters) into `template`.
    ///
    /// Values are restricted to letters, digits, `-` and `_` (plus inner dots), so no combination of
    /// percent-encoding, `..`, `/`, `\` or NUL in a request can name a file outside the folder.
    // One pass over the UTF-8 bytes: through `String.replacing`, generic code that walks Characters, filling a path
    // took several times what serving a static fixture takes.
    package static func fill(_ template: String, parameters: [String: String],
                             query: [(name: String, value: String)] = []) -> Filled {
        var template = template
        return template.withUTF8 { bytes -> Filled in
            guard bytes.contains(UInt8(ascii: "{")) else { return .path(String(decoding: bytes, as: UTF8.self)) }
            var filled: [UInt8] = []
            filled.reserveCapacity(bytes.count + 16)
            var index = 0
            while index < bytes.count {
                guard bytes[index] == UInt8(ascii: "{"),
                      let close = bytes[(index + 1)...].firstIndex(of: UInt8(ascii: "}")) else {
                    filled.append(bytes[index])
                    index += 1
                    continue
                }
                let name = String(decoding: bytes[(index + 1)..<close], as: UTF8.self)
                guard let value = parameters[name] ?? query.first(where: { $0.name == name })?.value else {
                    return .absent(name)
                }
                guard isSafe(value) else { return .unsafe(name) }
                filled += value.utf8
                index = close + 1
            }
            return .path(String(decoding: filled, as: UTF8.self))
        }
    }

    /// ``fill(_:parameters:query:)`` for path parameters alone: the relative path, or `nil` when a value
    /// is missing or could leave the fixtures folder.
    package static func resolve(_ template: String, parameters: [String: String]) -> String? {
        if case .path(let path) = fill(template, parameters: parameters) { path } else { nil }
    }

    /// Whether `fileName` is a name the file-name `pattern` (`page-{page_no}.json`) can produce: each
    /// placeholder standing for a value ``fill(_:parameters:query:)`` accepts and `accepts(name, value)`
    /// allows (a parameter declared `integer` only produces integers).
    package static func matches(
        _ fileName: String,
        pattern: String,
        accepts: (_ name: String, _ value: String) -> Bool = { _, _ in true }
    ) -> Bool {
        matches(Substring(fileName), Substring(pattern), accepts)
    }

    private static func matches(_ name: Substring, _ pattern: Substring, _ accepts: (String, String) -> Bool) -> Bool {
        guard let open = pattern.firstIndex(of: "{"), let close = pattern[open...].firstIndex(of: "}") else {
            return name == pattern
        }
        let prefix = pattern[..<open]
        guard name.hasPrefix(prefix) else { return false }
        let placeholder = String(pattern[pattern.index(after: open)..<close])
        let rest = name.dropFirst(prefix.count), after = pattern[pattern.index(after: close)...]
        // Try every length for the value, shortest first, so `{a}-{b}.json` splits at some dash.
        var end = rest.startIndex
        while end < rest.endIndex {
            end = rest.index(after: end)
            let value = String(rest[..<end])
            if isSafe(value) && accepts(placeholder, value) && matches(rest[end...], after, accepts) { return true }
        }
        return false
    }

    /// Whether `relativePath` names a file inside the fixtures folder by its spelling alone: relative, no
    /// empty, `.` or `..` segment, no NUL. (Where the file really is, a symbolic link aside, is
    /// ``FixtureContainment``'s question.)
    package static func staysInside(_ relativePath: String) -> Bool {
        let bytes = relativePath.utf8
        guard !bytes.isEmpty, bytes.first != UInt8(ascii: "/"), !bytes.contains(0) else { return false }
        return !bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).contains {
            $0.elementsEqual("..".utf8) || $0.elementsEqual(".".utf8) || $0.isEmpty
        }
    }

    static func isSafe(_ value: String) -> Bool {
        // On UTF-8 bytes: the value is ASCII or it is refused, and byte checks cost no Character or grapheme work.
        let bytes = value.utf8
        guard let first = bytes.first, let last = bytes.last, bytes.count <= 128,
              first != UInt8(ascii: "."), last != UInt8(ascii: ".") else { return false }
        var previous: UInt8 = 0
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                break
            case UInt8(ascii: "."):
                if previous == UInt8(ascii: ".") { return false }
            default:
                return false
            }
            previous = byte
        }
        return true
    }
}
