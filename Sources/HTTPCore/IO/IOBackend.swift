/// The readiness API the event loops use: `epoll` (Linux), `kqueue` (macOS, iOS) or `poll` (any POSIX
/// system, and the portable fallback). The platform's best is the default.
///
/// ```swift
/// var configuration = MockServer.Configuration(port: 0)
/// configuration.io = .poll
/// ```
public struct IOBackend: Sendable, Hashable, CustomStringConvertible {
    enum Kind: String, CaseIterable {
        case epoll, kqueue, poll
    }

    let kind: Kind

    /// Linux's epoll(7).
    public static let epoll = IOBackend(kind: .epoll)
    /// The BSDs' and Darwin's kqueue(2).
    public static let kqueue = IOBackend(kind: .kqueue)
    /// POSIX poll(2), available everywhere.
    public static let poll = IOBackend(kind: .poll)

    /// The environment variable that chooses the backend when the configuration does not, so a whole
    /// test run can be repeated on another backend (`MOCK_SERVER_IO=poll swift test`).
    public static let environmentVariable = "MOCK_SERVER_IO"

    /// The best backend of this platform.
    public static var platformDefault: IOBackend {
        #if os(Linux)
        .epoll
        #elseif canImport(Darwin)
        .kqueue
        #else
        .poll
        #endif
    }

    /// The backends this platform has.
    public static var available: [IOBackend] {
        Kind.allCases.map(IOBackend.init(kind:)).filter(\.isAvailable)
    }

    /// The backend named `name` (`epoll`, `kqueue`, `poll`), whether or not this platform has it.
    public init?(name: String) {
        guard let kind = Kind(rawValue: name) else { return nil }
        self.kind = kind
    }

    private init(kind: Kind) { self.kind = kind }

    public var description: String { kind.rawValue }

    /// Whether this platform has the backend.
    public var isAvailable: Bool {
        switch kind {
        case .poll: true
        case .epoll:
            #if os(Linux)
            true
            #else
            false
            #endif
        case .kqueue:
            #if canImport(Darwin)
            true
            #else
            false
            #endif
        }
    }

    /// The backend named by ``environmentVariable``, or the platform's default when it is unset or empty.
    /// - Throws: ``SocketError/unavailableBackend(_:)`` for a name this platform does not have.
    static func fromEnvironment(_ value: String?) throws(SocketError) -> IOBackend {
        guard let value, !value.isEmpty else { return platformDefault }
        guard let backend = IOBackend(name: value), backend.isAvailable else {
            throw .unavailableBackend("\(environmentVariable)=\(value)")
        }
        return backend
    }

    func makeQueue() throws(SocketError) -> any ReadinessQueue {
        switch kind {
        case .poll:
            return PollQueue()
        case .epoll:
            #if os(Linux)
            return try EpollQueue()
            #else
            throw .unavailableBackend(description)
            #endif
        case .kqueue:
            #if canImport(Darwin)
            return try KqueueQueue()
            #else
            throw .unavailableBackend(description)
            #endif
        }
    }
}
