import ContractModel

/// Fixture files in memory, re-read when their modification time or size changes, so an edited
/// fixture is served on the next request without a restart while an unchanged one costs one `stat`.
final class FixtureStore: Sendable {
    private struct Entry {
        let path: String
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
        let cached = cache.withValue { $0[relativePath] }
        if cached == nil && !Self.staysInside(relativePath) { return nil }
        let path = cached?.path ?? root + "/" + relativePath
        guard let stamp = System.fileStamp(path) else {
            if cached != nil { cache.withValue { $0[relativePath] = nil } }
            return nil
        }
        if let cached, cached.modified == stamp.modified, cached.size == stamp.size {
            return cached.bytes
        }
        guard let bytes = System.readFile(path) else { return nil }
        cache.withValue { $0[relativePath] = Entry(path: path, modified: stamp.modified, size: stamp.size, bytes: bytes) }
        return bytes
    }

    private static func staysInside(_ relativePath: String) -> Bool {
        let bytes = relativePath.utf8
        guard bytes.first != UInt8(ascii: "/"), !bytes.contains(0) else { return false }
        return !bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).contains {
            $0.elementsEqual("..".utf8) || $0.elementsEqual(".".utf8) || $0.isEmpty
        }
    }
}
