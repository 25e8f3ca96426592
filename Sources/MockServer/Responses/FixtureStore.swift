import ContractModel
import HTTPCore

/// Fixture files in memory, so that an edited fixture is served on the next request without a
/// restart.
///
/// While the server runs on Linux a ``FileWatcher`` reports changes, the event loops call
/// ``refresh()`` and a cached fixture costs no system call. Without a trustworthy watcher (on macOS,
/// with a symbolic link in the tree, or out of inotify instances) every use checks the file's
/// modification time and size with one `stat`, and re-reads it when they changed.
final class FixtureStore: Sendable {
    fileprivate final class Entry: Sendable {
        let path: String
        let modified: Int
        let size: Int
        let bytes: [UInt8]
        /// The file parsed as a template, per scenario (``ScenarioPlay/serial``, whose context it was parsed
        /// in): parsed on first use, dropped with the entry when the file changes.
        let templates = Locked<[Int: Result<ResponseTemplate, ResponseTemplate.Problem>]>([:])
        /// Per scenario: the last rendering of the template, with the request values it was made from
        /// (``TemplateRenderer/requestValues(_:_:)``); dropped with the entry when the file changes.
        let renders = Locked<[Int: (values: [String?], bytes: [UInt8])]>([:])

        init(path: String, modified: Int, size: Int, bytes: [UInt8]) {
            self.path = path
            self.modified = modified
            self.size = size
            self.bytes = bytes
        }
    }

    private struct State {
        var entries: [String: Entry] = [:]
        /// The entries of the scenarios with a fixed fixture, at ``ScenarioPlay/serial`` minus ``firstScenario``:
        /// found by an index, rather than by hashing the path (or an integer key) on every request. Emptied with
        /// ``entries``.
        var byScenario: [Entry?] = []
        var firstScenario = 0
        var watcher: FileWatcher?
        /// False once the watcher has missed or may miss a change; then every use checks the file.
        var trusted = false
        /// Counts reported changes, so a file read while one arrives is not cached stale.
        var generation = 0
    }

    /// Why a fixture could not be served.
    enum Unavailable: Error, Equatable {
        /// No regular file at the path (deleted while the server runs, or a per-id file never written).
        case missing
        /// The path resolves, through a symbolic link, to this file outside the fixtures folder.
        case outside(String)
        /// A path or query parameter's value cannot be part of a fixture's name (see ``FixturePath/fill(_:parameters:query:)``).
        case unsafeParameter

        var reason: String {
            switch self {
            case .missing: "fixture missing"
            case .unsafeParameter: "a parameter value cannot name a fixture (see the fixture path rule: letters, digits, -, _ and inner dots)"
            case .outside(let target): "fixture resolves outside the fixtures folder (to \(target)); not served"
            }
        }
    }

    let root: String
    /// The fixtures folder with every symbolic link resolved, against which files are checked.
    private let realRoot: String?
    private let state = Locked(State())

    init(root: String) {
        self.root = root
        realRoot = POSIX.realPath(root)
    }

    /// Starts watching the fixtures folder.
    /// - Returns: The descriptor the event loops poll for changes, or `nil` when every use checks
    ///   the file instead.
    func startWatching() -> Int32? {
        state.withValue { state in
            if state.watcher == nil {
                state.watcher = FileWatcher.start(root: root)
                state.trusted = state.watcher != nil
                state.entries = [:]
                state.byScenario = []
            }
            return state.watcher?.descriptor
        }
    }

    /// Whether cached fixtures are trusted until the watcher reports a change (otherwise every use
    /// checks the file).
    var isWatching: Bool { state.withValue { $0.trusted } }

    /// How many changes the watcher has reported, while it is trusted: a body made from the fixtures at one
    /// generation stays right until the next; `nil` when every use must check the files.
    var trustedGeneration: Int? { state.withValue { $0.trusted ? $0.generation : nil } }

    /// Stops watching and closes the descriptor; call once no event loop polls it any more.
    func stopWatching() {
        state.withValue { state in
            state.watcher = nil
            state.trusted = false
        }
    }

    /// Takes in the watcher's pending notifications; called by an event loop when its descriptor is
    /// readable, before that loop serves any request of the same wake-up.
    func refresh() {
        state.withValue { state in
            guard let watcher = state.watcher else { return }
            switch watcher.drain() {
            case .none:
                return
            case .changed:
                break
            case .unreliable:
                state.trusted = false
            }
            state.entries = [:]
            state.byScenario = []
            state.generation += 1
        }
    }

    /// The file's bytes, or why there are none: no such regular file, or one that a symbolic link
    /// places outside the fixtures folder.
    /// - Parameter relativePath: Resolved by ``FixturePath/resolve(_:parameters:)``, so it holds no
    ///   `..`; checked again here because this is the last line before the file system.
    func bytes(at relativePath: String) -> Result<[UInt8], Unavailable> {
        entry(at: relativePath).map(\.bytes)
    }

    /// ``bytes(at:)`` for a scenario's fixed fixture (one without placeholders), remembered by the scenario's
    /// ``ScenarioPlay/serial`` while the watcher is trusted.
    func bytes(at relativePath: String, rememberedAs serial: Int) -> Result<[UInt8], Unavailable> {
        // The bytes read under the lock: taking out the entry cost a retain and a release more.
        let (known, generation) = state.withValue { state in
            let index = serial - state.firstScenario
            let remembered = state.trusted && index >= 0 && index < state.byScenario.count
            return (remembered ? state.byScenario[index]?.bytes : nil, state.generation)
        }
        if let known { return .success(known) }
        return remember(entry(at: relativePath), serial: serial, generation: generation).map(\.bytes)
    }

    /// The entry of a scenario's fixed fixture, remembered by its serial as ``bytes(at:rememberedAs:)`` does.
    private func entry(at relativePath: String, rememberedAs serial: Int) -> Result<Entry, Unavailable> {
        let (known, generation) = state.withValue { state in
            let index = serial - state.firstScenario
            let remembered = state.trusted && index >= 0 && index < state.byScenario.count
            return (remembered ? state.byScenario[index] : nil, state.generation)
        }
        if let known { return .success(known) }
        return remember(entry(at: relativePath), serial: serial, generation: generation)
    }

    /// Keeps `found` at the scenario's place, unless a change was reported since `generation`.
    private func remember(_ found: Result<Entry, Unavailable>, serial: Int, generation: Int) -> Result<Entry, Unavailable> {
        guard case .success(let entry) = found else { return found }
        state.withValue { state in
            // Not when a change was reported meanwhile: the entry may be older than it.
            guard state.trusted, state.generation == generation else { return }
            var index = serial - state.firstScenario
            // The plays of one contract set have consecutive serials; one far before or after the others kept
            // (contracts reloaded since) starts the places over around itself.
            if index < 0 || index >= Self.scenarioPlaces {
                state.byScenario = []
                state.firstScenario = max(0, serial - Self.scenarioPlaces / 2)
                index = serial - state.firstScenario
            }
            if index >= state.byScenario.count {
                state.byScenario += repeatElement(nil, count: index + 1 - state.byScenario.count)
            }
            state.byScenario[index] = entry
        }
        return found
    }

    /// How many serials the remembered entries span at most.
    static let scenarioPlaces = 4096

    /// The file parsed as `play`'s response template, once per version of the file (keyed by the scenario's serial
    /// number, which hashes in a few instructions where its context would hash two dictionaries per request), with the
    /// memo of its last rendering for `play`.
    struct Renderable {
        let template: Result<ResponseTemplate, ResponseTemplate.Problem>
        fileprivate let entry: Entry
        let serial: Int

        fileprivate init(template: Result<ResponseTemplate, ResponseTemplate.Problem>, entry: Entry, serial: Int) {
            self.template = template
            self.entry = entry
            self.serial = serial
        }

        /// The bytes last rendered from exactly these request values, if any.
        func rendered(from values: [String?]) -> [UInt8]? {
            entry.renders.withValue { renders in
                guard let last = renders[serial], last.values == values else { return nil }
                return last.bytes
            }
        }

        /// Keeps `bytes` as the rendering of `values` (in place of the last one).
        func remember(_ bytes: [UInt8], from values: [String?]) {
            entry.renders.withValue { $0[serial] = (values, bytes) }
        }
    }

    /// The template at `relativePath` for `play`, or why there is no file.
    func renderable(at relativePath: String, for play: ScenarioPlay) -> Result<Renderable, Unavailable> {
        // A template at a fixed path is found by the scenario's place, as a fixed fixture's bytes are: no hash of
        // its path on every request.
        let remembered = !play.hasPathPlaceholders && relativePath == play.fixture   // not the fallback
        let found = remembered ? entry(at: relativePath, rememberedAs: play.serial) : entry(at: relativePath)
        return found.map { entry in
            if let parsed = entry.templates.withValue({ $0[play.serial] }) {
                return Renderable(template: parsed, entry: entry, serial: play.serial)
            }
            let parsed = Result { () throws(ResponseTemplate.Problem) in
                try ResponseTemplate.parse(entry.bytes, context: play.templateContext)
            }
            entry.templates.withValue { $0[play.serial] = parsed }
            return Renderable(template: parsed, entry: entry, serial: play.serial)
        }
    }

    private func entry(at relativePath: String) -> Result<Entry, Unavailable> {
        let (cached, trusted, generation) = state.withValue { ($0.entries[relativePath], $0.trusted, $0.generation) }
        if trusted, let cached { return .success(cached) }
        if cached == nil && !FixturePath.staysInside(relativePath) { return .failure(.missing) }
        let path = cached?.path ?? root + "/" + relativePath
        guard let stamp = POSIX.fileStamp(path) else {
            if cached != nil { state.withValue { $0.entries[relativePath] = nil } }
            return .failure(.missing)
        }
        if let cached, cached.modified == stamp.modified, cached.size == stamp.size {
            return .success(cached)
        }
        // Checked whenever the file is (re)read, so a link retargeted outside is caught too.
        guard let real = POSIX.realPath(path) else { return .failure(.missing) }
        guard let realRoot, real != realRoot, FixtureContainment.contains(realRoot: realRoot, realPath: real) else {
            return .failure(.outside(real))
        }
        guard let bytes = POSIX.readFile(path) else { return .failure(.missing) }
        let entry = Entry(path: path, modified: stamp.modified, size: stamp.size, bytes: bytes)
        state.withValue { state in
            if state.generation == generation { state.entries[relativePath] = entry }
        }
        return .success(entry)
    }
}
