/// Why bytes are not a YAML document this reader accepts, with the line and column where the reader stopped.
/// Both count from 1; the column counts characters, not bytes, so it matches what an editor shows.
package struct YAMLReadError: Error, Equatable, CustomStringConvertible {
    package let line: Int
    package let column: Int
    package let reason: String

    package var description: String { "line \(line), column \(column): \(reason)" }

    init(_ reason: String, at mark: YAMLMark) {
        self.line = mark.line
        self.column = mark.column + 1
        self.reason = reason
    }
}
