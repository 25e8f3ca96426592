/// What an import could not express in contracts, and what else a person should know, each with its place
/// in the document: printed at the end of every import, never silently dropped.
package struct ImportReport: Sendable {
    /// One thing left out or changed.
    package struct Entry: Sendable, Hashable, CustomStringConvertible {
        package let file: String
        /// A JSON pointer into the document, `#/paths/~1pets/get/parameters/2`.
        package let pointer: String
        package let message: String

        package var description: String { "\(file): #\(pointer): \(message)" }
    }

    /// What the contracts do not express (a construct skipped, a choice made where OpenAPI allows several).
    package private(set) var skipped: [Entry] = []
    /// Files the import did not overwrite because a person edited them.
    package private(set) var kept: [String] = []

    mutating func skip(_ file: String, _ pointer: String, _ message: String) {
        let entry = Entry(file: file, pointer: pointer, message: message)
        if !skipped.contains(entry) { skipped.append(entry) }
    }

    mutating func keep(_ path: String) {
        kept.append(path)
    }
}
