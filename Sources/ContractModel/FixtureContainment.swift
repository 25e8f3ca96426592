// Only Foundation's essentials (FileManager, URL): they keep the mock server small and quick to start.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Whether a fixture stays inside the fixtures folder once symbolic links are followed. The server
/// never serves one that does not; `validate` names the link and where it leads.
enum FixtureContainment {
    /// Where `path` leads when that is outside `root` (symbolic links followed), else `nil`.
    static func escape(of path: String, root: String) -> String? {
        let real = URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
        let realRoot = URL(fileURLWithPath: root).resolvingSymlinksInPath().standardizedFileURL.path
        return real == realRoot || real.hasPrefix(realRoot.hasSuffix("/") ? realRoot : realRoot + "/") ? nil : real
    }
}
