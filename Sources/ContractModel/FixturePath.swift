/// Resolves a scenario's fixture path (`products/{id}.json`) to a file inside the fixtures folder.
package enum FixturePath {
    /// The `{name}` placeholders of a fixture path.
    package static func placeholders(in path: String) -> [String] {
        var names: [String] = []
        var rest = Substring(path)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            names.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    /// Substitutes path parameters into `template` and returns the relative path, or `nil` when a
    /// value could leave the fixtures folder.
    ///
    /// Values are restricted to letters, digits, `-` and `_` (plus inner dots), so no combination of
    /// percent-encoding, `..`, `/`, `\` or NUL in a request can name a file outside the folder.
    package static func resolve(_ template: String, parameters: [String: String]) -> String? {
        var result = template
        for (name, value) in parameters where template.contains("{\(name)}") {
            guard isSafe(value) else { return nil }
            result = result.replacing("{\(name)}", with: value)
        }
        return result
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
        guard !value.isEmpty, value.utf8.count <= 128, value.first != ".", value.last != "." else { return false }
        return value.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                || scalar == "-" || scalar == "_" || scalar == ".")
        } && !value.contains("..")
    }
}
