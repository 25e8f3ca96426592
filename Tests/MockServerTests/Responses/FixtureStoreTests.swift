import Foundation
@testable import HTTPCore
@testable import MockServer
import Testing

/// The fixture cache against real files: what a watched store serves after each kind of change, and
/// that a tree the watcher cannot see whole falls back to checking every file.
@Suite(.serialized)
struct FixtureStoreTests {
    private let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("fixtures-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("health"),
                                                withIntermediateDirectories: true)
        try write("OK", to: "health/ok.txt")
    }

    private func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: root.appendingPathComponent(path))
    }

    private func text(_ store: FixtureStore, _ path: String) -> String? {
        (try? store.bytes(at: path).get()).map { String(decoding: $0, as: UTF8.self) }
    }

    private func removeRoot() { try? FileManager.default.removeItem(at: root) }

    #if os(Linux)
    @Test func watchedStore_ServesEditsAfterRefresh() throws {
        defer { removeRoot() }
        let store = FixtureStore(root: root.path)
        #expect(store.startWatching() != nil)
        defer { store.stopWatching() }
        #expect(store.isWatching)
        #expect(text(store, "health/ok.txt") == "OK")

        try write("edited in place", to: "health/ok.txt")
        store.refresh()
        #expect(text(store, "health/ok.txt") == "edited in place")

        try Data("replaced".utf8).write(to: root.appendingPathComponent("health/ok.txt"), options: .atomic)
        store.refresh()
        #expect(text(store, "health/ok.txt") == "replaced")

        try FileManager.default.removeItem(at: root.appendingPathComponent("health/ok.txt"))
        store.refresh()
        #expect(text(store, "health/ok.txt") == nil)
        #expect(store.isWatching)
    }

    @Test func fixedFixtures_RememberedByScenario_AreServedAfreshAfterEachChange() throws {
        defer { removeRoot() }
        try write("A", to: "health/a.txt")
        let store = FixtureStore(root: root.path)
        _ = store.startWatching()
        defer { store.stopWatching() }
        func text(_ path: String, _ serial: Int) -> String? {
            (try? store.bytes(at: path, rememberedAs: serial).get()).map { String(decoding: $0, as: UTF8.self) }
        }
        #expect(text("health/ok.txt", 7) == "OK" && text("health/a.txt", 8) == "A")
        #expect(text("health/ok.txt", 7) == "OK" && text("health/a.txt", 8) == "A")

        try write("edited", to: "health/ok.txt")
        store.refresh()
        #expect(text("health/ok.txt", 7) == "edited" && text("health/a.txt", 8) == "A")
        // Scenarios far apart (contracts reloaded in between) each get their own file.
        let far = 7 + FixtureStore.scenarioPlaces * 3
        #expect(text("health/a.txt", far) == "A" && text("health/ok.txt", 7) == "edited")
        #expect(text("health/a.txt", far) == "A" && text("health/ok.txt", 7) == "edited")

        try FileManager.default.removeItem(at: root.appendingPathComponent("health/ok.txt"))
        store.refresh()
        #expect(text("health/ok.txt", 7) == nil && text("health/a.txt", far) == "A")
    }

    @Test func watchedStore_SeesFilesInDirectoriesCreatedLater() throws {
        defer { removeRoot() }
        let store = FixtureStore(root: root.path)
        _ = store.startWatching()
        defer { store.stopWatching() }
        #expect(text(store, "later/new.json") == nil)

        try FileManager.default.createDirectory(at: root.appendingPathComponent("later"),
                                                withIntermediateDirectories: true)
        try write("1", to: "later/new.json")
        store.refresh()
        #expect(text(store, "later/new.json") == "1")

        // The new directory is watched too: an edit inside it is reported.
        try write("2", to: "later/new.json")
        store.refresh()
        #expect(text(store, "later/new.json") == "2")
        #expect(store.isWatching)
    }

    @Test func symbolicLinkAddedLater_FallsBackToCheckingEveryFile() throws {
        defer { removeRoot() }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("shared"),
                                                withIntermediateDirectories: true)
        try write("shared", to: "shared/body.txt")
        let store = FixtureStore(root: root.path)
        _ = store.startWatching()
        defer { store.stopWatching() }

        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("health/linked.txt"),
                                                   withDestinationURL: root.appendingPathComponent("shared/body.txt"))
        store.refresh()
        #expect(!store.isWatching)
        #expect(text(store, "health/linked.txt") == "shared")
        // An edit behind the link, with no refresh at all, is still served.
        try write("shared, edited", to: "shared/body.txt")
        #expect(text(store, "health/linked.txt") == "shared, edited")
    }

    /// A fixture that a symbolic link places outside the folder is never served, even when the link is
    /// retargeted after the file was cached.
    @Test func symbolicLinkLeavingTheFolder_IsNeverServed() throws {
        defer { removeRoot() }
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("outside-\(UUID().uuidString)")
        try Data("secret".utf8).write(to: outside)
        defer { try? FileManager.default.removeItem(at: outside) }
        let link = root.appendingPathComponent("health/linked.txt")
        let store = FixtureStore(root: root.path)

        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: outside)
        guard case .failure(.outside(let target)) = store.bytes(at: "health/linked.txt") else {
            Issue.record("a file outside the fixtures folder was served")
            return
        }
        #expect(target.hasSuffix(outside.lastPathComponent))

        try FileManager.default.removeItem(at: link)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: root.appendingPathComponent("health/ok.txt"))
        #expect(text(store, "health/linked.txt") == "OK")
        try FileManager.default.removeItem(at: link)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: outside)
        #expect(text(store, "health/linked.txt") == nil)
    }

    @Test func treeOnANonLocalFileSystem_IsNotWatched() throws {
        defer { removeRoot() }
        // procfs stands in for NFS or SMB here: no links, readable, but not a local disk file system.
        let store = FixtureStore(root: "/proc/sys/fs/inotify")
        #expect(store.startWatching() == nil)
        #expect(!store.isWatching)
        #expect(text(store, "max_user_watches").map { !$0.isEmpty } == true)
    }
    #endif

    @Test func treeWithSymbolicLink_IsNotWatched_AndEveryUseChecksTheFile() throws {
        defer { removeRoot() }
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("alias"),
                                                   withDestinationURL: root.appendingPathComponent("health"))
        let store = FixtureStore(root: root.path)
        #expect(store.startWatching() == nil)
        #expect(!store.isWatching)
        #expect(text(store, "alias/ok.txt") == "OK")
        try write("edited", to: "health/ok.txt")
        #expect(text(store, "alias/ok.txt") == "edited")
        #expect(text(store, "health/ok.txt") == "edited")
    }

    @Test func unwatchedStore_ChecksARememberedScenariosFileOnEveryUse() throws {
        defer { removeRoot() }
        let store = FixtureStore(root: root.path)
        #expect((try? store.bytes(at: "health/ok.txt", rememberedAs: 3).get()) == Array("OK".utf8))
        try write("changed", to: "health/ok.txt")
        #expect((try? store.bytes(at: "health/ok.txt", rememberedAs: 3).get()) == Array("changed".utf8))
    }

    @Test func pathsLeavingTheFolder_AreRefused() throws {
        defer { removeRoot() }
        let store = FixtureStore(root: root.path + "/health")
        _ = store.startWatching()
        defer { store.stopWatching() }
        for path in ["../health/ok.txt", "/etc/passwd", "./ok.txt", "a//b", "ok.txt\0"] {
            #expect(text(store, path) == nil, "\(path)")
        }
        #expect(text(store, "ok.txt") == "OK")
    }
}
