/// Bytes as text, only when they are UTF-8.
package enum UTF8Text {
    /// `bytes` as a string when they are valid UTF-8, else `nil`.
    ///
    /// The standard library's `String(validating:as:)` does this from macOS 15 and iOS 18, above this package's
    /// deployment targets. Decoding repairs invalid UTF-8 (each bad sequence becomes U+FFFD), so the repaired
    /// text's UTF-8 differs from the bytes exactly when they were not valid.
    package static func decoded(_ bytes: some Collection<UInt8>) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.utf8.elementsEqual(bytes) ? text : nil
    }
}
