import ContractModel

/// Fixture files in memory, re-read when their modification time or size changes, so an edited
/// fixture is served on the next request without a restart while an unchanged one costs one `stat`.
final class FixtureStore: Sendable {
    private struct Entry {
        let modified: Int
        let size: Int
        let bytes: [UInt8]
    }

    let root: String
    private let cache = Locked<[String: Entry]>([:])

    init(root: String) { self.root = root }

    /// The file's bytes, or `nil` when there is no such regular file inside the fixtures folder.
    /// - Parameter relativePath: Resolved by ``FixturePath/resolve(_:parameters:)``, so it holds no
    ///   `..`; checked again here because this is the last line before the file system.
    func bytes(at relativePath: String) -> [UInt8]? {
        guard !relativePath.hasPrefix("/"), !relativePath.utf8.contains(0),
              !relativePath.split(separator: "/").contains(where: { $0 == ".." || $0 == "." })
        else { return nil }
        let path = root + "/" + relativePath
        guard let stamp = System.fileStamp(path) else {
            cache.withValue { $0[relativePath] = nil }
            return nil
        }
        if let entry = cache.withValue({ $0[relativePath] }), entry.modified == stamp.modified,
           entry.size == stamp.size {
            return entry.bytes
        }
        guard let bytes = System.readFile(path) else { return nil }
        cache.withValue { $0[relativePath] = Entry(modified: stamp.modified, size: stamp.size, bytes: bytes) }
        return bytes
    }
}
