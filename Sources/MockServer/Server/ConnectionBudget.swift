/// How many connections the event loops may hold together: the descriptor limit less a reserve, so
/// that a server full of connections can still open its fixture files. Past it, loops stop accepting
/// (clients wait in the backlog) rather than answer with a file they could not open.
final class ConnectionBudget: Sendable {
    let capacity: Int
    private let open = Locked(0)

    /// - Parameter descriptorLimit: The process's limit on open descriptors (`nil`: unknown, no cap).
    init(descriptorLimit: Int?) {
        guard let limit = descriptorLimit, limit < Int.max / 2 else {
            capacity = Int.max
            return
        }
        // Listener, loops' queues and pipes, the fixture watcher, standard streams and files being read.
        let reserve = min(32, limit / 2)
        capacity = max(1, limit - reserve)
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
