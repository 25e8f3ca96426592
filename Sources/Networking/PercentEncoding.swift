/// Percent-encoding shared by the query and form strategies.
enum PercentEncoding {
    /// Encodes every byte outside RFC 3986's unreserved set (`A–Z a–z 0–9 - . _ ~`) as `%XX`.
    ///
    /// That is stricter than `URLComponents`, which leaves `+`, `&`-free sub-delimiters and `/`
    /// alone; servers differ on what a literal `+` means, so it is always sent as `%2B`.
    /// - Parameter spaceAsPlus: `true` for `application/x-www-form-urlencoded`, which writes a
    ///   space as `+`.
    static func encode(_ string: String, spaceAsPlus: Bool = false) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(string.utf8.count)
        for byte in string.utf8 {
            if isUnreserved(byte) {
                bytes.append(byte)
            } else if byte == UInt8(ascii: " ") && spaceAsPlus {
                bytes.append(UInt8(ascii: "+"))
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Joins `name=value` pairs with `&`, in the given order. A `nil` value is written as the bare name.
    static func encodePairs(_ items: [QueryItem], spaceAsPlus: Bool) -> String {
        items.map { item in
            let name = encode(item.name, spaceAsPlus: spaceAsPlus)
            guard let value = item.value else { return name }
            return name + "=" + encode(value, spaceAsPlus: spaceAsPlus)
        }
        .joined(separator: "&")
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
