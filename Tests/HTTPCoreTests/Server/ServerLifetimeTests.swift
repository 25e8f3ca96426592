import Foundation
import HTTPCore
import Testing
import TestSupport

/// A stopped server lets go of everything it made: its event loops, and through them its responder, even when
/// connections were open (each connection holds its loop, and the loop its connections, until it closes them).
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct ServerLifetimeTests {
    private final class Responder: HTTPResponder {
        func respond(to request: HTTPRequest, peerIsLoopback: Bool) -> Reply {
            .respond(HTTPResponse(status: .ok, body: Array("ok".utf8)))
        }
        func reject(_ status: HTTPStatus, reason: String) -> Reply {
            .respond(HTTPResponse(status: status, body: Array(reason.utf8)))
        }
        func didSend(_ reply: Reply, for request: HTTPRequest, bytes: Int, started: UInt64?) {}
    }

    @Test func stoppedServer_ReleasesItsLoopsAndResponder_WithConnectionsOpen() throws {
        _ = TestProcess.descriptorLimit
        weak var released: Responder?
        var clients: [RawClient] = []
        do {
            let responder = Responder()
            released = responder
            var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0, threads: 2, io: nil)
            configuration.settings.shutdownGrace = 50_000_000
            let server = HTTPServer(configuration: configuration, responder: responder)
            try server.start()
            for index in 0..<4 {
                let client = try RawClient(port: server.port)
                client.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                #expect(try client.readResponse().status == 200)
                // Half of them in the middle of their next request: kept open until the shutdown grace ends.
                if index.isMultiple(of: 2) { client.send("GET / HTTP/1.1\r\n") }
                clients.append(client)
            }
            // Time for the loops to read those halves, so that those connections are busy, not idle, at the stop.
            Thread.sleep(forTimeInterval: 0.1)
            server.stop()
        }
        #expect(released == nil, "the responder outlived its stopped server")
        // The clients, still open, see the server's close.
        for client in clients {
            let end = client.readToEnd()
            #expect(end.bytes.isEmpty && end.end != .timedOut, "\(end.end)")
        }
    }
}
