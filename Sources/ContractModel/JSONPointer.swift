/// JSON pointers (RFC 6901), as `{{body/user/name}}` placeholders write them.
extension JSONValue {
    /// The value `pointer` designates: `""` is the whole document, `/a/0` the first item of member `a`;
    /// in a reference token `~1` stands for `/` and `~0` for `~`. An array index is decimal without
    /// leading zeros; `-` (one past the end) never designates a value.
    /// - Returns: The value, or `nil` when the pointer is malformed or designates nothing.
    package func value(at pointer: String) -> JSONValue? {
        guard !pointer.isEmpty else { return self }
        guard pointer.utf8.first == UInt8(ascii: "/") else { return nil }
        var current = self
        // Scalars, not Characters: a combining mark after `/` or `~` must not merge with it.
        for token in pointer.unicodeScalars.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            guard let token = Self.unescape(token) else { return nil }
            switch current {
            case .object(let members):
                guard let member = members[token] else { return nil }
                current = member
            case .array(let items):
                guard let index = Self.arrayIndex(token), index < items.count else { return nil }
                current = items[index]
            default:
                return nil
            }
        }
        return current
    }

    /// The pointer to member `name` of the document: `/` and the name with `~` written `~0` and `/` written `~1`.
    package static func pointer(toMember name: String) -> String {
        "/" + name.replacing("~", with: "~0").replacing("/", with: "~1")
    }

    /// Whether `pointer` is a JSON pointer: empty, or `/` and tokens in which every `~` is followed by
    /// `0` or `1`.
    package static func isValidPointer(_ pointer: String) -> Bool {
        pointer.isEmpty
            || pointer.utf8.first == UInt8(ascii: "/") && unescape(pointer.unicodeScalars.dropFirst()) != nil
    }

    /// A reference token decoded in one pass, so `~01` is `~1` and never `/`; `nil` for a bad escape.
    private static func unescape(_ token: Substring.UnicodeScalarView) -> String? {
        guard token.contains("~") else { return String(token) }
        var decoded = String.UnicodeScalarView()
        var afterTilde = false
        for scalar in token {
            if afterTilde {
                switch scalar {
                case "0": decoded.append("~")
                case "1": decoded.append("/")
                default: return nil
                }
                afterTilde = false
            } else if scalar == "~" {
                afterTilde = true
            } else {
                decoded.append(scalar)
            }
        }
        return afterTilde ? nil : String(decoded)
    }

    /// `0`, or a decimal without a leading zero; `nil` for anything else, `-` included.
    private static func arrayIndex(_ token: String) -> Int? {
        guard let first = token.utf8.first, token == "0" || first != UInt8(ascii: "0"),
              token.utf8.allSatisfy({ (48...57).contains($0) })
        else { return nil }
        return Int(token)
    }
}
