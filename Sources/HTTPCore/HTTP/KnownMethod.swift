/// The methods requests carry most, told from their bytes (case-sensitive, RFC 9110 §9.1) without making a string.
enum KnownMethod: UInt8 {
    case other, get, head, post, put, patch, delete, options

    init(_ bytes: UnsafeRawBufferPointer) {
        @inline(__always) func same(_ literal: StaticString) -> Bool { HeadParser.same(bytes, literal) }
        switch bytes.count {
        case 3 where same("GET"): self = .get
        case 4 where same("HEAD"): self = .head
        case 4 where same("POST"): self = .post
        case 3 where same("PUT"): self = .put
        case 5 where same("PATCH"): self = .patch
        case 6 where same("DELETE"): self = .delete
        case 7 where same("OPTIONS"): self = .options
        default: self = .other
        }
    }

    /// The method as a literal, which costs no UTF-8 check and no storage; `nil` for another.
    var name: String? {
        switch self {
        case .other: nil
        case .get: "GET"
        case .head: "HEAD"
        case .post: "POST"
        case .put: "PUT"
        case .patch: "PATCH"
        case .delete: "DELETE"
        case .options: "OPTIONS"
        }
    }
}
