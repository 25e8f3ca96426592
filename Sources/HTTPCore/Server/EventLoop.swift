/// One thread's readiness loop: waits for readiness and timers and hands them to its connections.
/// Nothing here blocks; a slow client only ever waits on its own socket. With nothing due, it sleeps
/// until the next deadline: an idle server makes no wake-ups.
///
/// Rules of the request path in this folder. A request moves, it is not copied: a connection parses it into the
/// storage of its last one, taken out of a ``SpareValue`` and put back by moves, and lends it to the responder and to
/// ``WirePlan``; only a reply that waits (a delay, a pending reply) keeps a reference to it, and the next request is
/// then not written over it (its storage is copied first). The loop finds a connection in a table indexed by its
/// descriptor (``ConnectionTable``, no hashing); the connection's input buffer and spare request are non-copyable
/// values that own their memory (``InboundBuffer``, ``SpareValue``), and what only the loop's thread touches is
/// exempt from the runtime's exclusivity checks. In the loop and its connection (the responder's work is its own), a
/// request answered at once takes no lock (the access log's ``LogWriter``, when the log is on, takes its own once a
/// line) and reads no clock: its arrival and its `Date` are the loop's reads, however many requests the turn has
/// (``wokeAt`` on waking, and one after the turn's work for its timers, again if any fired). The clock is read again
/// only for a request pipelined behind another, a delay, a hold, a stream or a closing connection. A reply is built
/// once: ``Reply`` and ``Reply/Note`` are made by initializers that set each field once, and the response head is
/// written once, into the storage of the last one (``WirePlan``).
/// Measure a change to this path with `Tests/Benchmarks/instructions.sh` before and after; figures go to
/// Tests/Benchmarks/HISTORY.md, not here.
package final class EventLoop: @unchecked Sendable {
    // @unchecked: after `run()` starts, every stored property except the `Locked` ones is used only on
    // the loop's own thread; the wake pipe is a file descriptor any thread may write to.

    let poller: any ReadinessQueue
    let listener: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    /// Other descriptors the loop watches, handled before the connections of the same wake-up.
    private let watched: [WatchedDescriptor]
    let responder: any HTTPResponder
    let budget: ConnectionBudget
    let settings: ServerSettings
    private let stopRequested = Locked(false)
    /// Descriptors of connections whose stream or pending reply has something new, posted by any thread.
    private let readyConnections = Locked<[Int32]>([])
    /// Those posted by the loop's own thread (a guest's reply): carried out at the end of the turn, without the pipe.
    @exclusivity(unchecked) var readyHere: [Int32] = []
    /// Components that run on this loop's thread (``LoopGuest``), by the key each was made under.
    @exclusivity(unchecked) var guests: [ObjectIdentifier: any LoopGuest] = [:]
    /// The descriptors guests watch, with their guest.
    @exclusivity(unchecked) var guestDescriptors = ConnectionTable<any LoopGuest>()
    /// The soonest time a guest asked to be called (monotonic; `.max`: none).
    @exclusivity(unchecked) var guestDeadline: UInt64 = .max

    /// Looked up several times per request, only on the loop's thread, never across another access
    /// to itself (loops over it iterate a copy): hence no dynamic exclusivity check.
    @exclusivity(unchecked) var connections = ConnectionTable<Connection>()
    /// Changed by connections as they arm their deadlines, and by the loop as they come due: only on the loop's thread,
    /// and never during another access to it (due timers are handled from the array `popDue` returns). Unchecked, as
    /// the runtime's check is a call into the runtime at the start and at the end of every access.
    @exclusivity(unchecked) var timers = TimerQueue()
    /// Filled by each wait and read until the next, by the loop alone: unchecked, as ``timers``.
    @exclusivity(unchecked) private var events: [ReadinessEvent] = []
    /// Read for every response, only on the loop's thread: no dynamic exclusivity check either.
    @exclusivity(unchecked) var date = HTTPDate()
    /// Monotonic nanoseconds when the loop last woke from waiting (or finished a watcher's work): read once per turn,
    /// the time every request of the turn arrived, and every response's `Date`, rather than a clock read per request
    /// and one per response. Written by the loop alone, between the accesses its connections make: no dynamic
    /// exclusivity check.
    @exclusivity(unchecked) package private(set) var wokeAt: UInt64 = 0
    private(set) var stopping = false
    private var stopDeadline: UInt64 = 0
    /// While out of descriptors, the listener is not watched until this time (0: it is watched).
    var acceptPausedUntil: UInt64 = 0
    /// Tells a connection's current timer from the ones it armed before (and from other connections'
    /// that had its descriptor).
    private var lastTimerToken: UInt64 = 0

    init(listener: Int32, watched: [WatchedDescriptor], responder: any HTTPResponder, settings: ServerSettings,
         backend: IOBackend, budget: ConnectionBudget) throws(SocketError) {
        self.budget = budget
        self.poller = try backend.makeQueue()
        self.listener = listener
        self.watched = watched
        (wakeRead, wakeWrite) = try POSIX.makeWakePipe()
        self.responder = responder
        self.settings = settings
        do {
            try poller.add(listener, .read, exclusive: true)
            try poller.add(wakeRead, .read)
            for descriptor in watched { try poller.add(descriptor.fd, .read) }
        } catch {
            POSIX.close(wakeRead)
            POSIX.close(wakeWrite)
            throw error
        }
    }

    /// The wake pipe lives as long as the loop: `requestStop()` may write to it after `run()` returned.
    deinit {
        POSIX.close(wakeRead)
        POSIX.close(wakeWrite)
    }

    /// Asks the loop to stop accepting, finish in-flight responses and return from `run()`.
    func requestStop() {
        stopRequested.withValue { $0 = true }
        POSIX.wake(wakeWrite)
    }

    /// Tells the loop, from any thread, that the stream or the pending reply of the connection on `fd` has
    /// something new.
    func connectionReady(fd: Int32) {
        if Self.current === self {
            readyHere.append(fd)
            return
        }
        let first = readyConnections.withValue { ready in
            ready.append(fd)
            return ready.count == 1
        }
        if first { POSIX.wake(wakeWrite) }
    }

    /// Runs until stopped. A failing wait (not an interrupted one) ends the loop with a line on standard
    /// error rather than spinning a core.
    func run() {
        Self.running.value?.loop = self
        defer { Self.running.value?.loop = nil }
        var now = POSIX.monotonicNanoseconds()
        while true {
            if stopping && (connections.isEmpty || now >= stopDeadline) { break }
            do {
                try poller.wait(timeoutMilliseconds: waitTimeout(now: now), into: &events)
            } catch {
                POSIX.writeLine("mock-server: event loop stopped: \(error)", toStandardError: true)
                break
            }
            wokeAt = POSIX.monotonicNanoseconds()
            // Watched descriptors first: a request that arrived after a fixture edit must see the edit.
            var watchedWork = false
            for descriptor in watched where events.contains(where: { $0.fd == descriptor.fd }) {
                descriptor.onReadable()
                watchedWork = true
            }
            // That work (a contract reload) can take a while: the turn's requests are timed, and dated, after it.
            if watchedWork { wokeAt = POSIX.monotonicNanoseconds() }
            // Guests' descriptors before the connections': a kept connection its peer closed is dropped before a
            // request of this turn would go on it (what closes after the wait returned is a guest's to meet, as in any
            // proxy).
            if !guestDescriptors.isEmpty {
                for event in events {
                    if let guest = guestDescriptors[event.fd] { guest.handle(event, on: self) }
                }
            }
            // New clients are accepted after the turn's events are handed out: a descriptor closed during the turn
            // may come back from accept(2), and an event of this turn for its old owner must not reach the new one.
            var listenerReady = false
            for event in events {
                if event.fd == listener {
                    listenerReady = true
                } else if event.fd == wakeRead {
                    POSIX.drain(wakeRead)
                    if stopRequested.current && !stopping { beginStop() }
                    for fd in readyConnections.withValue({ ready in defer { ready = [] }; return ready }) {
                        connections[fd]?.wake()
                    }
                } else if let connection = connections[event.fd] {
                    connection.handle(event)
                }
            }
            if listenerReady { acceptAll() }
            // The time after the turn's work, for its timers, is also the next wait's start, unless timers fired.
            now = POSIX.monotonicNanoseconds()
            let due = timers.popDue(now: now)
            for timer in due {
                guard let connection = connections[timer.fd], connection.token == timer.token else { continue }
                connection.timerFired(now: now)
            }
            resumeAcceptingIfDue(now: now)
            if !due.isEmpty { now = POSIX.monotonicNanoseconds() }
            wakeReadyHere()
            // Last, so that the deadlines of what the turn's replies started bound the wait.
            tickGuests(now: now)
        }
        for connection in connections.all { connection.close() }
        endGuests()
    }

    /// Until the soonest of: a timer, the end of an accept pause, the shutdown grace; -1 when none.
    private func waitTimeout(now: UInt64) -> Int32 {
        // Replies posted on this thread wait for the next turn: the wait only looks for what else is ready.
        if !readyHere.isEmpty { return 0 }
        var deadline = min(timers.nextDeadline ?? .max, guestDeadline)
        if acceptPausedUntil != 0 { deadline = min(deadline, acceptPausedUntil) }
        if stopping { deadline = min(deadline, stopDeadline) }
        guard deadline != .max else { return -1 }
        guard deadline > now else { return 0 }
        return Int32(min((deadline - now + 999_999) / 1_000_000, UInt64(Int32.max)))
    }

    private func beginStop() {
        stopping = true
        stopDeadline = POSIX.monotonicNanoseconds() + settings.shutdownGrace
        poller.remove(listener)
        for connection in connections.all { connection.beginStop() }
    }

    func nextTimerToken() -> UInt64 {
        lastTimerToken &+= 1
        return lastTimerToken
    }

    /// Forgets a connection that is closing (or aborted): its descriptor is closed by the caller.
    func forget(_ connection: Connection) {
        poller.remove(connection.fd)
        connections[connection.fd] = nil
        connection.forgotten()
        budget.release()
    }
}

/// A descriptor an event loop watches besides its sockets, such as a file watcher's.
public struct WatchedDescriptor: Sendable {
    let fd: Int32
    let onReadable: @Sendable () -> Void

    public init(fd: Int32, onReadable: @escaping @Sendable () -> Void) {
        self.fd = fd
        self.onReadable = onReadable
    }
}
