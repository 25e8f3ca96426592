#if canImport(Glibc)
import CSystemShims
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Tells when anything under a directory tree may have changed, so that cached files need no `stat`
/// per use. Linux only (inotify); elsewhere ``start(root:)`` returns `nil` and the caller checks each
/// file itself.
///
/// Every directory of the tree is watched. The watcher is ``Change/unreliable`` (and `start` returns
/// `nil`) whenever a change could go unseen: a symbolic link anywhere in the tree, a directory on a
/// file system that is not local (NFS, SMB, FUSE, 9p: changes made by another machine raise no
/// event), more than ``maximumDirectories`` directories, or a watch the kernel refuses.
///
/// Not thread-safe; ``FixtureStore`` uses it under its lock.
public final class FileWatcher {
    public enum Change: Equatable {
        case none
        case changed
        /// The watcher can no longer see every change; the caller must stop trusting it for good.
        case unreliable
    }

    public static let maximumDirectories = 1_024

    /// Becomes readable when something changed. Event loops poll it and then call ``drain()``.
    public let descriptor: Int32
    private let root: String

    #if os(Linux)
    private static let mask = UInt32(IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO
        | IN_CREATE | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF)
    #endif

    private init(descriptor: Int32, root: String) {
        self.descriptor = descriptor
        self.root = root
    }

    deinit { POSIX.close(descriptor) }

    /// A watcher of every directory under `root`, or `nil` when the platform has no inotify, the
    /// per-user limit of instances is reached, or the tree cannot be watched whole.
    public static func start(root: String) -> FileWatcher? {
        #if os(Linux)
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        let watcher = FileWatcher(descriptor: descriptor, root: root)
        return watcher.watchTree() ? watcher : nil
        #else
        return nil
        #endif
    }

    /// Reads every pending notification. After any change the whole tree is watched again, so a new
    /// directory is covered before the caller re-reads a file.
    public func drain() -> Change {
        #if os(Linux)
        var change = Change.none
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            change = .changed
        }
        guard change == .changed else { return .none }
        return watchTree() ? .changed : .unreliable
        #else
        return .none
        #endif
    }

    /// Adds a watch to every directory under the root (adding one twice is harmless).
    /// - Returns: `false` when the tree cannot be watched whole.
    private func watchTree() -> Bool {
        var pending = [root]
        var watched = 0
        while let directory = pending.popLast() {
            watched += 1
            guard watched <= Self.maximumDirectories, Self.isLocal(directory), addWatch(directory) else {
                return false
            }
            guard let entries = Self.entries(of: directory) else { return false }
            for entry in entries {
                switch entry.kind {
                case .directory: pending.append(directory + "/" + entry.name)
                case .file: continue
                case .link: return false
                }
            }
        }
        return true
    }

    private func addWatch(_ directory: String) -> Bool {
        #if os(Linux)
        inotify_add_watch(descriptor, directory, Self.mask | UInt32(IN_ONLYDIR) | UInt32(IN_DONT_FOLLOW)) >= 0
            || directory == root && inotify_add_watch(descriptor, directory, Self.mask | UInt32(IN_ONLYDIR)) >= 0
        #else
        false
        #endif
    }

    #if os(Linux)
    /// Local file systems, whose every change raises an inotify event (statfs(2) magic numbers):
    /// ext2/3/4, XFS, Btrfs, tmpfs, overlayfs, F2FS, ZFS and ramfs.
    private static let localFileSystems: Set<Int> = [
        0xEF53, 0x5846_5342, 0x9123_683E, 0x0102_1994, 0x794C_7630, 0xF2F5_2010, 0x2FC1_2FC1, 0x8584_58F6,
    ]
    #endif

    private static func isLocal(_ directory: String) -> Bool {
        #if os(Linux)
        var info = statfs()
        guard statfs(directory, &info) == 0 else { return false }
        return localFileSystems.contains(Int(info.f_type))
        #else
        false
        #endif
    }

    private enum EntryKind { case file, directory, link }

    /// The names in `directory` without `.` and `..`, or `nil` if it cannot be read.
    private static func entries(of directory: String) -> [(name: String, kind: EntryKind)]? {
        guard let stream = opendir(directory) else { return nil }
        defer { closedir(stream) }
        var entries: [(name: String, kind: EntryKind)] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name != ".", name != ".." else { continue }
            var kind: EntryKind
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_DIR): kind = .directory
            case Int32(DT_LNK): kind = .link
            case Int32(DT_UNKNOWN): kind = kindByLstat(directory + "/" + name)
            default: kind = .file
            }
            entries.append((name, kind))
        }
        return entries
    }

    private static func kindByLstat(_ path: String) -> EntryKind {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .file }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFLNK: return .link
        default: return .file
        }
    }
}
