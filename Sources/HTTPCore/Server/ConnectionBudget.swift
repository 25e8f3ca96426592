/// How many connections the event loops may hold together: the descriptor limit less a reserve, so
/// that a server full of connections can still open its fixture files. Past it, loops stop accepting
/// (clients wait in the backlog) rather than answer with a file they could not open.
final class ConnectionBudget: Sendable {
    let capacity: Int
    private let open = Locked(0)
    /// Running out is reported at most once a second, whichever loop runs out.
    private let nextWarning = Locked<UInt64>(0)

    /// - Parameters:
    ///   - descriptorLimit: The process's limit on open descriptors (`nil`: unknown, no cap).
    ///   - loops: Event loops, each holding its own readiness queue and wake pipe.
    init(descriptorLimit: Int?, loops: Int) {
        guard let limit = descriptorLimit, limit < Int.max / 2 else {
            capacity = Int.max
            return
        }
        // The listener, each loop's queue and pipe, the fixture watcher, standard streams, files being read.
        let reserve = min(32 + 3 * loops, limit / 2)
        capacity = max(1, limit - reserve)
    }

    /// Whether running out should be reported now (at most once a second).
    func shouldWarn(now: UInt64) -> Bool {
        nextWarning.withValue { next in
            guard now >= next else { return false }
            next = now + 1_000_000_000
            return true
        }
    }

    /// Takes a place for one more connection; `false` when the budget is spent.
    func take() -> Bool {
        open.withValue { count in
            guard count < capacity else { return false }
            count += 1
            return true
        }
    }

    /// Gives back the place of a closed connection.
    func release() {
        open.withValue { $0 -= 1 }
    }
}
