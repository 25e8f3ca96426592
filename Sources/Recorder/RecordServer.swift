import HTTPCore
import MockProtocol
import MockServer

/// `mock-server record`: a reverse proxy that relays every request to the target and records each exchange.
/// Only `POST /__mock/record/flush` is answered here (with the admin API's access rules); other `/__mock/`
/// paths get a 404, everything else goes to the target.
public final class RecordServer: Sendable {
    /// How the proxy listens and logs.
    public struct Configuration: Sendable {
        public var host = "127.0.0.1"
        public var port: UInt16 = 8080
        public var threads = 1
        public var io: IOBackend?
        public var logFormat = AccessLog.Format.text
        /// Host names (besides loopback ones and the bound address) under which the flush endpoint answers.
        public var allowedHosts: [String] = []
        /// A token the flush endpoint demands in `X-Mock-Admin-Token`; made up when listening beyond loopback.
        public var adminToken: String?

        public init() {}
    }

    public let configuration: Configuration
    public let proxy: UpstreamProxy
    /// The token the flush endpoint demands, or `nil` when loopback clients need none.
    public let adminToken: String?
    private let http: HTTPServer

    public init(configuration: Configuration, proxy: UpstreamProxy) {
        self.configuration = configuration
        self.proxy = proxy
        let exposed = !AdminAccess.isLoopbackHost(configuration.host)
        adminToken = configuration.adminToken ?? (exposed ? MockServer.randomToken() : nil)
        let access = AdminAccess(allowedHosts: MockServer.ownAddresses(configuration.host) + configuration.allowedHosts, token: adminToken,
                                 tokenFromLoopback: configuration.adminToken != nil)
        let responder = RecordResponder(proxy: proxy, access: access, log: AccessLog(format: configuration.logFormat))
        http = HTTPServer(configuration: .init(host: configuration.host, port: configuration.port,
                                               threads: configuration.threads, io: configuration.io),
                          responder: responder)
    }

    /// The bound port, once started.
    public var port: UInt16 { http.port }

    /// Binds and starts serving; `beforeServing` gets the bound port before any request is relayed.
    public func start(beforeServing: (_ port: UInt16) -> Void = { _ in }) throws(SocketError) {
        try http.start(beforeServing: beforeServing)
    }

    /// Stops accepting, answers what is pending, and stops the relay threads. Safe to call more than once.
    public func stop() {
        http.stop()
        proxy.stop()
    }
}

/// Relays every request but the flush endpoint's.
final class RecordResponder: HTTPResponder {
    static let flushPath = AdminPath.path("record/flush")
    private let proxy: UpstreamProxy
    private let access: AdminAccess
    private let log: AccessLog

    init(proxy: UpstreamProxy, access: AdminAccess, log: AccessLog) {
        self.proxy = proxy
        self.access = access
        self.log = log
    }

    func respond(to request: HTTPRequest, peerIsLoopback: Bool) -> Reply {
        if request.path == Self.flushPath {
            if let refusal = access.refusal(of: request, fromLoopback: peerIsLoopback) { return .respond(refusal) }
            guard request.method == "POST" else {
                return .respond(ServerJSON.error(.methodNotAllowed, "\(Self.flushPath) takes POST",
                                                 headers: [("Allow", "POST")]))
            }
            return .respond(RelayReplies.flushed(proxy.flushRecording()))
        }
        if AdminPath.contains(request.path) {
            return .respond(ServerJSON.error(.notFound, "mock-server record answers only POST \(Self.flushPath) "
                + "under \(AdminPath.prefix); everything else goes to \(proxy.target)"))
        }
        if let refusal = access.hostRefusal(of: request, for: "the recorder") { return .respond(refusal) }
        let note = Reply.Note(source: RelayReplies.source, outcome: .relayed)
        return RelayReplies.relay(request, to: proxy, note: note)
    }

    /// A long or open-ended body streams on to the backend as it arrives (kept for the recording up to
    /// `--max-record-bytes`); what the recorder refuses is refused once the body is read, as usual.
    var passesBodiesOn: Bool { proxy.streamsRequestBodies }

    func respond(toHead request: HTTPRequest, body: RequestBodyStream, peerIsLoopback: Bool) -> Reply? {
        guard proxy.streamsRequestBodies, !AdminPath.contains(request.path),
              access.hostRefusal(of: request, for: "the recorder") == nil else { return nil }
        return RelayReplies.relay(request, body: body, to: proxy,
                                  note: Reply.Note(source: RelayReplies.source, outcome: .relayed))
    }

    func reject(_ status: HTTPStatus, reason: String) -> Reply {
        Reply(.respond(ServerJSON.error(status, reason)), note: .init(reason: reason))
    }

    func didSend(_ reply: Reply, for request: HTTPRequest, bytes: Int, started: UInt64?) {
        log.write(request: request, reply: reply, bytes: bytes, started: started)
    }
}
