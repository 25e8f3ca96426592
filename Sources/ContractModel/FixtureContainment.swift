// Only Foundation's essentials (FileManager, URL): they keep the mock server small and quick to start.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Whether a fixture stays inside the fixtures folder once symbolic links are followed: the one rule, which
/// the loader (`validate` names the link and where it leads) and the server (which never serves such a file,
/// checking whenever it reads one) both apply.
package enum FixtureContainment {
    /// Whether `realPath` is `realRoot` or below it; both with every symbolic link resolved, by the same means.
    package static func contains(realRoot: String, realPath: String) -> Bool {
        realPath == realRoot || realPath.hasPrefix(realRoot.hasSuffix("/") ? realRoot : realRoot + "/")
    }

    /// Where `path` leads when that is outside `root` (symbolic links followed), else `nil`.
    static func escape(of path: String, root: String) -> String? {
        let real = URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
        let realRoot = URL(fileURLWithPath: root).resolvingSymlinksInPath().standardizedFileURL.path
        return contains(realRoot: realRoot, realPath: real) ? nil : real
    }
}
