@testable import HTTPCore

/// An event loop that is never run, only pointed to by wakers: for tests of streams and feeds that wake one.
public enum EventLoopStub {
    public static func make() throws -> EventLoop {
        let listener = try POSIX.makeListener(host: "127.0.0.1", port: 0, backlog: 1)
        defer { POSIX.close(listener) }
        return try EventLoop(listener: listener, watched: [], responder: NoResponder(), settings: ServerSettings(),
                             backend: .poll, budget: ConnectionBudget(descriptorLimit: 1024, loops: 1))
    }

    final class NoResponder: HTTPResponder {
        func respond(to request: HTTPRequest, peerIsLoopback: Bool) -> Reply { .respond(HTTPResponse(status: .ok)) }
        func reject(_ status: HTTPStatus, reason: String) -> Reply { .respond(HTTPResponse(status: status)) }
        func didSend(_ reply: Reply, for request: HTTPRequest, bytes: Int, started: UInt64?) {}
    }
}
