/// How a scalar's text becomes a JSON value: by YAML 1.2's core schema when it is plain and untagged, by its
/// tag when it has one, and as a string otherwise (`"12"` is a string, `12` a number).
///
/// The core schema differs from YAML 1.1, which PyYAML and many older tools follow: `yes`, `no`, `on` and
/// `off` are strings, `0777` is the decimal 777 (octal is `0o777`), `1_000` and `1:30` are strings, and
/// dates stay strings.
enum YAMLCoreSchema {
    /// The value of a scalar.
    /// - Throws: ``YAMLReadError`` at `mark` for `.inf` and `.nan` (JSON has no such numbers), for text that
    ///   does not fit its tag (`!!int abc`), and for tags other than those of ``YAMLTag``.
    static func value(of text: String, style: YAMLScalarStyle, tag: String?, at mark: YAMLMark)
        throws(YAMLReadError) -> JSONValue {
        switch tag {
        case nil where style == .plain: break
        case nil, YAMLTag.nonSpecific?, YAMLTag.string?: return .string(text)
        case YAMLTag.null?:
            guard isNull(text) else { throw YAMLReadError("'\(text)' is not a !!null value", at: mark) }
            return .null
        case YAMLTag.boolean?:
            guard let flag = boolean(text) else { throw YAMLReadError("'\(text)' is not a !!bool value", at: mark) }
            return .bool(flag)
        case YAMLTag.integer?:
            guard let number = try integer(text, at: mark) else {
                throw YAMLReadError("'\(text)' is not an !!int value", at: mark)
            }
            return .number(number)
        case YAMLTag.float?:
            guard let number = try number(text, at: mark) else {
                throw YAMLReadError("'\(text)' is not a !!float value", at: mark)
            }
            return .number(number)
        case let tag?:
            throw YAMLTag.unsupported(tag, at: mark)
        }
        if isNull(text) { return .null }
        if let flag = boolean(text) { return .bool(flag) }
        if let number = try number(text, at: mark) { return .number(number) }
        return .string(text)
    }

    private static func isNull(_ text: String) -> Bool {
        text.isEmpty || text == "~" || text == "null" || text == "Null" || text == "NULL"
    }

    private static func boolean(_ text: String) -> Bool? {
        switch text {
        case "true", "True", "TRUE": true
        case "false", "False", "FALSE": false
        default: nil
        }
    }

    /// An integer or a float.
    private static func number(_ text: String, at mark: YAMLMark) throws(YAMLReadError) -> Double? {
        if let number = try integer(text, at: mark) { return number }
        return try float(text, at: mark)
    }

    /// `[-+]?[0-9]+`, `0o[0-7]+` or `0x[0-9a-fA-F]+`.
    private static func integer(_ text: String, at mark: YAMLMark) throws(YAMLReadError) -> Double? {
        let bytes = Array(text.utf8)
        let digits: ArraySlice<UInt8>
        let radix: Double
        if bytes.starts(with: Array("0o".utf8)) {
            (digits, radix) = (bytes[2...], 8)
        } else if bytes.starts(with: Array("0x".utf8)) {
            (digits, radix) = (bytes[2...], 16)
        } else {
            let sign = bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") ? 1 : 0
            guard bytes.count > sign, bytes[sign...].allSatisfy({ (48...57).contains($0) }) else { return nil }
            return try finite(Double(text), text, at: mark)
        }
        var value = 0.0
        for byte in digits {
            guard let digit = hexDigitValue(byte), digit < radix else { return nil }
            value = value * radix + digit
        }
        return digits.isEmpty ? nil : try finite(value, text, at: mark)
    }

    /// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`; `.inf` and `.nan` are refused.
    private static func float(_ text: String, at mark: YAMLMark) throws(YAMLReadError) -> Double? {
        if [".nan", ".NaN", ".NAN"].contains(text) { throw notJSON(text, "is not a number", at: mark) }
        var bytes = Array(text.utf8)[...]
        if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        if [".inf", ".Inf", ".INF"].contains(String(decoding: bytes, as: UTF8.self)) {
            throw notJSON(text, "is infinite", at: mark)
        }
        let integerDigits = bytes.prefix { (48...57).contains($0) }.count
        bytes = bytes.dropFirst(integerDigits)
        var fractionDigits = 0
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            fractionDigits = bytes.prefix { (48...57).contains($0) }.count
            bytes = bytes.dropFirst(fractionDigits)
            guard integerDigits > 0 || fractionDigits > 0 else { return nil }
        } else if integerDigits == 0 {
            return nil
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
            guard !bytes.isEmpty, bytes.allSatisfy({ (48...57).contains($0) }) else { return nil }
            bytes = []
        }
        guard bytes.isEmpty else { return nil }
        return try finite(Double(text), text, at: mark)
    }

    private static func notJSON(_ text: String, _ what: String, at mark: YAMLMark) -> YAMLReadError {
        YAMLReadError("'\(text)' \(what), which JSON cannot hold; quote it to keep it as text", at: mark)
    }

    private static func finite(_ value: Double?, _ text: String, at mark: YAMLMark) throws(YAMLReadError) -> Double {
        guard let value, value.isFinite else {
            throw YAMLReadError("the number '\(text)' is too large for JSON; quote it to keep it as text", at: mark)
        }
        return value
    }

    private static func hexDigitValue(_ byte: UInt8) -> Double? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Double(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Double(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Double(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
