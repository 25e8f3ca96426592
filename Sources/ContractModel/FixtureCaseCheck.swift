// Only Foundation's essentials (FileManager, URL): they keep the mock server small and quick to start.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Finds fixture paths that match a file on disk only when letter case is ignored. macOS volumes ignore
/// case by default, so `Products/List.json` opens `products/list.json` there and fails on Linux CI or a
/// case-sensitive volume; comparing with the directory listings makes `validate` say so on every
/// platform.
struct FixtureCaseCheck {
    private let root: String
    /// Directory listings read so far, by relative path (`nil`: not a readable directory).
    private var listings: [String: Set<String>?] = [:]

    init(root: String) {
        self.root = root
    }

    /// The on-disk spelling of `relative` when some component differs from it only in case, else `nil`
    /// (also when the path does not exist at all; the caller reports that).
    mutating func differentlyCased(_ relative: String) -> String? {
        var actual: [String] = []
        var differs = false
        for component in relative.split(separator: "/").map(String.init) {
            let directory = actual.joined(separator: "/")
            guard let names = listing(directory) else { return nil }
            if names.contains(component) {
                actual.append(component)
            } else if let match = names.first(where: { $0.lowercased() == component.lowercased() }) {
                actual.append(match)
                differs = true
            } else {
                return nil
            }
        }
        return differs ? actual.joined(separator: "/") : nil
    }

    private mutating func listing(_ directory: String) -> Set<String>? {
        if let cached = listings[directory] { return cached }
        let path = directory.isEmpty ? root : root + "/" + directory
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)).map(Set.init)
        listings[directory] = .some(names)
        return names
    }
}
