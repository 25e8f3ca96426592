/// Refreshes credentials when a call that sent them is answered 401, once for all the calls that hit the
/// 401 together (single flight), and lets each of them replay its request once.
///
/// Give it to the client with an interceptor that reads the current token; the refresh stores a new one
/// where that interceptor finds it:
///
/// ```swift
/// let client = APIClient(
///     environment: .local(),
///     interceptors: [BearerTokenInterceptor { await tokens.current }],
///     authRefresher: AuthRefresher { try await tokens.refresh() })
/// ```
///
/// A call counts as having sent credentials when its request, after the interceptors, carries
/// `Authorization`. When the refresh throws, each call that was waiting for it, or whose request went out
/// before it failed, returns its original `requestErr(401)`. A 401 to a request sent before a refresh
/// that has since succeeded replays at once without another one.
public actor AuthRefresher {
    /// Where the refresher stood when a request went out.
    struct Snapshot: Sendable {
        /// Refreshes finished, successful or not.
        let finished: Int
        /// Refreshes that succeeded.
        let succeeded: Int
    }

    private let refresh: @Sendable () async throws -> Void
    private var finished = 0
    private var succeeded = 0
    private var inFlight: Task<Bool, Never>?

    /// - Parameter refresh: Gets and stores new credentials; throws when it cannot.
    public init(refresh: @escaping @Sendable () async throws -> Void) {
        self.refresh = refresh
    }

    /// The state a request is sent under.
    var snapshot: Snapshot { Snapshot(finished: finished, succeeded: succeeded) }

    /// Makes sure credentials newer than those of `seen` exist: returns at once when a refresh finished
    /// since (its outcome), joins one under way, or starts one.
    /// - Returns: Whether there are newer credentials to replay with.
    func refresh(after seen: Snapshot) async -> Bool {
        if succeeded > seen.succeeded { return true }
        if finished > seen.finished { return false }
        if let inFlight { return await inFlight.value }
        let task = Task { () -> Bool in
            let refreshed: Bool
            do {
                try await refresh()
                refreshed = true
            } catch {
                refreshed = false
            }
            finished += 1
            if refreshed { succeeded += 1 }
            inFlight = nil
            return refreshed
        }
        inFlight = task
        return await task.value
    }
}
