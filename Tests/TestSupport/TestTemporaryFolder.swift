import Foundation

/// Folders for files a test hands to a child process or leaves for a later step (an OpenAPI document to import, the
/// output folders of a recorder): made in one folder of this test process's own, which is removed when the process
/// exits, so that a run leaves nothing in the system's temporary folder. (``ScratchContracts`` is removed sooner, when
/// the test releases it.)
public enum TestTemporaryFolder {
    /// This process's folder, made on first use.
    public static let root: String = {
        // A UUID besides the process number: two test runs in containers that share the folder can have one number.
        let root = NSTemporaryDirectory()
            + "mocked-networking-tests-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: TestTemporaryFolder.root) }
        return root
    }()

    /// The path of a new folder in ``root``, named `prefix` and a UUID; created only when `create` is true.
    public static func folder(_ prefix: String, create: Bool = true) throws -> String {
        let path = root + "/\(prefix)-\(UUID().uuidString)"
        if create { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        return path
    }
}
