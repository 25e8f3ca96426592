/// Work of another component that an event loop carries on its own thread, such as the proxy's exchanges with its
/// backend: descriptors the loop watches for it (``EventLoop/watch(_:_:for:)``), a call after every turn for its
/// deadlines, and word when the loop ends. Every call comes on the loop's thread, so a guest needs no lock for what
/// is its own; each loop has its own guest of a kind (``EventLoop/guest(_:make:)``).
package protocol LoopGuest: AnyObject {
    /// A descriptor the guest watches is ready (or failed).
    func handle(_ event: ReadinessEvent, on loop: EventLoop)
    /// Called after every turn of the loop (and at least by the time it returned last, monotonic).
    /// - Returns: When the guest next needs a call, monotonic nanoseconds; `nil` for no time of its own.
    func tick(now: UInt64, on loop: EventLoop) -> UInt64?
    /// The loop stopped: what the guest has open is its to close; no more calls come.
    func loopEnded(_ loop: EventLoop)
}

extension EventLoop {
    /// The loop running on this thread, if any.
    final class Running {
        weak var loop: EventLoop?
    }

    static let running = PerThread { Running() }

    /// The event loop whose thread this is; `nil` on any other thread.
    package static var current: EventLoop? { running.value?.loop }

    /// This loop's guest made under `key`, made by `make` on first use. Only on the loop's thread.
    package func guest<Guest: LoopGuest>(_ key: ObjectIdentifier, make: () -> Guest) -> Guest {
        if let known = guests[key] as? Guest { return known }
        let made = make()
        guests[key] = made
        return made
    }

    /// Watches `fd` for `guest` until ``unwatch(_:)``. Only on the loop's thread.
    package func watch(_ fd: Int32, _ interest: Interest, for guest: any LoopGuest) throws(SocketError) {
        try poller.add(fd, interest)
        guestDescriptors[fd] = guest
    }

    /// Changes what a guest's descriptor is watched for.
    package func rewatch(_ fd: Int32, _ interest: Interest) {
        poller.modify(fd, interest)
    }

    /// Stops watching a guest's descriptor; called before it is closed or handed to another thread.
    package func unwatch(_ fd: Int32) {
        poller.remove(fd)
        guestDescriptors[fd] = nil
    }

    /// Each guest's call after a turn; the soonest time one asked for bounds the next wait.
    func tickGuests(now: UInt64) {
        guard !guests.isEmpty else { return }
        var soonest = UInt64.max
        for guest in guests.values {
            if let deadline = guest.tick(now: now, on: self) { soonest = min(soonest, deadline) }
        }
        guestDeadline = soonest
    }

    /// Asks for a call to ``LoopGuest/tick(now:on:)`` by `deadline` (monotonic): for what a guest started after this
    /// turn's calls, such as a request relayed by a reply carried out at the end of the turn.
    package func callGuests(by deadline: UInt64) {
        guestDeadline = min(guestDeadline, deadline)
    }

    /// Carries out the replies posted on this thread during the turn (a guest's), as the wake pipe's would be: once
    /// each, as the pipe would. What they post in turn waits for the next turn (the wait then does not block), so a
    /// stream that yields its turn lets the other connections have theirs.
    func wakeReadyHere() {
        guard !readyHere.isEmpty else { return }
        let ready = readyHere
        readyHere = []
        for fd in ready { connections[fd]?.wake() }
    }

    func endGuests() {
        let ended = guests.values
        guests = [:]
        for guest in ended { guest.loopEnded(self) }
    }
}
