/// Hands out fixture paths so that no two scenarios share one: on a clash (letter case aside, for file
/// systems that ignore it) `-2`, `-3`… goes before the extension. With `existing`, a path whose file is
/// already on disk with other bytes counts as taken too, so a merge never overwrites what a person wrote.
struct FixtureNamer {
    private var taken: Set<String> = []
    private let existing: (String) -> [UInt8]?

    init(existing: @escaping (String) -> [UInt8]? = { _ in nil }) {
        self.existing = existing
    }

    /// A free path like `path` (`folder/stem.ext`) for `bytes`.
    mutating func claim(_ path: String, for bytes: [UInt8]) -> String {
        let dot = path.lastIndex(of: ".") ?? path.endIndex
        var candidate = path
        var counter = 2
        while taken.contains(candidate.lowercased()) || (existing(candidate).map { $0 != bytes } ?? false) {
            candidate = path[..<dot] + "-\(counter)" + path[dot...]
            counter += 1
        }
        taken.insert(candidate.lowercased())
        return candidate
    }
}
