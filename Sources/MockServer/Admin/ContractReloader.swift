#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ContractModel
import HTTPCore

/// Holds the contract set being served and replaces it when the contract files change (or on
/// `POST /__mock/reload`): the new set is loaded and validated in full first, and only a valid one
/// replaces the old, at once. A broken set changes nothing that is served; its problems are kept
/// (``status``) until a good set loads.
///
/// On Linux a ``FileWatcher`` on the contracts folder tells the event loops of a change. Where there
/// is none (macOS, a network file system), the files' modification times and sizes are compared at
/// most once a second, when a request arrives. Either way the reload runs on the event loop that
/// noticed: loading takes milliseconds (15 ms for 1,000 endpoints), during which that loop's other
/// connections wait.
final class ContractReloader: Sendable {
    private struct State {
        var current: ServingSet
        /// The last reload's outcome; `nil` before the first.
        var last: ReloadOutcome?
        var watcher: FileWatcher?
        /// False once the watcher has missed or may miss a change; then requests check the files.
        var trusted = false
        /// The contract files' stamps when last loaded, for the check without a watcher.
        var stamps: [String: [Int]]
        var nextCheck: UInt64 = 0
        /// A reload is reading the files; it reads them again if they change meanwhile.
        var reloadRunning = false
    }

    private let state: Locked<State>
    /// One reload at a time; requests keep reading ``current`` meanwhile.
    private let reloading = Lock()
    private let configuration: MockServer.Configuration
    private let scenarios: ScenarioStore
    /// Told after every reload, with its problems if it failed (the executable logs them).
    private let onReload: (@Sendable (ReloadOutcome) -> Void)?

    /// Resources start again from their seeds (or what `--persist` kept) when a new set is served.
    private let resources: ResourceStore

    init(contracts: ContractSet, configuration: MockServer.Configuration, scenarios: ScenarioStore,
         resources: ResourceStore) {
        self.configuration = configuration
        self.scenarios = scenarios
        self.resources = resources
        onReload = configuration.onReload
        state = Locked(State(current: ServingSet(contracts: contracts, serverScenario: configuration.scenario),
                             stamps: Self.stamps(of: configuration.contractsDirectory)))
    }

    /// The contract set to serve a request with.
    var current: ServingSet {
        state.withValue { $0.current }
    }

    /// ``current``, after reloading if the files changed where no watcher tells. One lock, and no clock
    /// read while the watcher is trusted.
    func currentChecked() -> ServingSet {
        let (serving, due) = state.withValue { state -> (ServingSet, Bool) in
            guard !state.trusted else { return (state.current, false) }
            let now = POSIX.monotonicNanoseconds()
            guard now >= state.nextCheck else { return (state.current, false) }
            state.nextCheck = now + 1_000_000_000
            return (state.current, true)
        }
        guard due, Self.stamps(of: configuration.contractsDirectory) != state.withValue({ $0.stamps }) else {
            return serving
        }
        reload()
        return current
    }

    /// The last reload's outcome; `nil` before the first.
    var last: ReloadOutcome? { state.withValue { $0.last } }

    /// Loads the contracts folder again; replaces the served set only if the new one is valid.
    @discardableResult
    func reload() -> ReloadOutcome {
        let outcome = reloading.withLock { () -> ReloadOutcome in
            state.withValue { $0.reloadRunning = true }
            defer { state.withValue { $0.reloadRunning = false } }
            var outcome = load()
            // Files that changed while they were read (an editor still saving) are read once more.
            for _ in 0..<2 where Self.stamps(of: configuration.contractsDirectory) != state.withValue({ $0.stamps }) {
                outcome = load()
            }
            return outcome
        }
        onReload?(outcome)
        return outcome
    }

    /// One load of the folder; replaces the served set if it is valid.
    private func load() -> ReloadOutcome {
        let stamps = Self.stamps(of: configuration.contractsDirectory)
        let outcome: ReloadOutcome
        do throws(ContractLoadError) {
            let contracts = try ContractLoader.load(contractsDirectory: configuration.contractsDirectory,
                                                    fixturesDirectory: configuration.fixturesDirectory)
            let serving = ServingSet(contracts: contracts, serverScenario: configuration.scenario)
            // Kept items must still fit their resources, or the new set is refused like a broken contract.
            try resources.replaceOrigins(seeds: contracts.seeds, resources: contracts.contracts.flatMap(\.resources))
            outcome = ReloadOutcome(succeeded: true, problems: [], endpoints: serving.routes.count,
                                    seconds: POSIX.wallClock().seconds)
            scenarios.prune(to: serving)
            state.withValue { $0.current = serving }
        } catch {
            outcome = ReloadOutcome(succeeded: false, problems: error.problems, endpoints: current.routes.count,
                                    seconds: POSIX.wallClock().seconds)
        }
        state.withValue { state in
            state.last = outcome
            state.stamps = stamps
        }
        return outcome
    }

    // MARK: - Watching

    /// Starts watching the contracts folder.
    /// - Returns: The descriptor the event loops poll, or `nil` when requests check the files instead.
    func startWatching() -> Int32? {
        state.withValue { state in
            if state.watcher == nil {
                state.watcher = FileWatcher.start(root: configuration.contractsDirectory)
                state.trusted = state.watcher != nil
            }
            return state.watcher?.descriptor
        }
    }

    func stopWatching() {
        state.withValue { state in
            state.watcher = nil
            state.trusted = false
        }
    }

    /// Called by an event loop when the watcher's descriptor is readable.
    func watcherIsReadable() {
        let change = state.withValue { state -> FileWatcher.Change in
            guard let watcher = state.watcher else { return .none }
            let change = watcher.drain()
            if change == .unreliable { state.trusted = false }
            return change
        }
        // Only a change to a contract file reloads (an editor's swap file does not), and not while a reload
        // is reading the files: that one reads them again if they changed meanwhile.
        guard change != .none, !state.withValue({ $0.reloadRunning }),
              Self.stamps(of: configuration.contractsDirectory) != state.withValue({ $0.stamps }) else { return }
        reload()
    }

    /// Each `*.json` file of the folder with its modification time and size.
    private static func stamps(of directory: String) -> [String: [Int]] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var stamps: [String: [Int]] = [:]
        for name in names where name.hasSuffix(".json") {
            let stamp = POSIX.fileStamp(directory + "/" + name)
            stamps[name] = stamp.map { [$0.modified, $0.size] } ?? []
        }
        return stamps
    }
}
