import Foundation
import HTTPCore
@testable import Recorder
import Testing
import TestSupport

/// The upstream loop relays on kept connections without a thread per exchange, over real sockets: answers each in
/// turn on one connection, gives back what it cannot do (no kept connection, a stale one for a request that may go
/// again) for the blocking client, fails a silent target at the timeout and everything in flight when stopped, and
/// hands a body that streams on over to the caller with the bytes it read.
@Suite(.timeLimit(.minutes(2)), .blockingIO) struct UpstreamLoopTests {
    typealias Backend = UpstreamConnectionReuseTests.CountingBackend

    /// What jobs came to, in the order they finished.
    final class Outcomes: @unchecked Sendable {
        // @unchecked: `list` is read and written under `lock`.
        private let lock = NSLock()
        private var list: [UpstreamLoop.Outcome] = []

        func add(_ outcome: UpstreamLoop.Outcome) { lock.withLock { list.append(outcome) } }
        var all: [UpstreamLoop.Outcome] { lock.withLock { list } }

        /// Waits until `count` jobs finished, or `seconds` passed.
        func wait(for count: Int, seconds: Double = 10) throws -> [UpstreamLoop.Outcome] {
            try pollUntil(seconds: seconds) { all.count >= count }
            return all
        }
    }

    /// A client whose one kept connection to `backend` is made by a first exchange the blocking way, and a loop on
    /// the same kept connections.
    private func keptConnection(to backend: Backend, timeout: Double = 5) throws -> (UpstreamClient, UpstreamLoop) {
        let client = UpstreamClient(host: "127.0.0.1", port: backend.port, timeout: timeout)
        guard case .success = client.exchange(request(), method: .get) else { throw Failure("no first exchange") }
        return (client, try UpstreamLoop(idle: client.idle, timeout: timeout))
    }

    private func request(_ method: String = "GET") -> [UInt8] {
        Array("\(method) /x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n".utf8)
    }

    private func job(_ method: HTTPRequest.Method = .get, streams: Bool = false, wanted: Bool = true,
                     into outcomes: Outcomes) -> UpstreamLoop.Job {
        UpstreamLoop.Job(bytes: request(method.rawValue), method: method, isWanted: { wanted }, streams: { _ in streams },
                         finish: outcomes.add)
    }

    private func body(_ outcome: UpstreamLoop.Outcome?) -> String? {
        guard case .response(let response)? = outcome else { return nil }
        return String(decoding: response.body, as: UTF8.self)
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    @Test func aRunOfJobs_IsAnsweredOnTheKeptConnection() throws {
        let backend = try Backend(.keepAlive)
        defer { backend.stop() }
        let (_, loop) = try keptConnection(to: backend)
        defer { loop.stop() }
        let outcomes = Outcomes()
        for number in 1...20 {
            #expect(loop.submit(job(into: outcomes)))
            #expect(body(try outcomes.wait(for: number).last) == "ok")
        }
        #expect(backend.accepted == 1, "every job went out on the connection the first exchange left")
    }

    /// A target that answers before it has read the whole request would read the rest as the next request: the
    /// connection is closed, not kept.
    @Test func aConnectionAnsweredBeforeTheRequestWasWritten_IsNotKept() throws {
        let backend = try Backend(.answersBeforeTheBody)
        defer { backend.stop() }
        let (client, loop) = try keptConnection(to: backend)
        defer { loop.stop() }
        let size = 32 << 20
        let bytes = Array("POST /x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(size)\r\n\r\n".utf8)
            + [UInt8](repeating: 0x61, count: size)
        let outcomes = Outcomes()
        #expect(loop.submit(UpstreamLoop.Job(bytes: bytes, method: .post, isWanted: { true }, streams: { _ in false },
                                             finish: outcomes.add)))
        #expect(body(try outcomes.wait(for: 1).first) == "ok")
        let kept = client.idle.take()
        #expect(kept == nil, "the half-written connection was kept for the next request")
        kept.map(POSIX.close)
    }

    @Test func withoutAKeptConnection_TheJobIsGivenBack() throws {
        let backend = try Backend(.keepAlive)
        defer { backend.stop() }
        let loop = try UpstreamLoop(idle: IdleConnections(capacity: 4), timeout: 5)
        defer { loop.stop() }
        let outcomes = Outcomes()
        #expect(loop.submit(job(into: outcomes)))
        guard case .notSent? = try outcomes.wait(for: 1).first else {
            Issue.record("expected notSent, got \(outcomes.all)")
            return
        }
        #expect(backend.accepted == 0)
    }

    @Test func aJobNobodyWants_IsNotSent_AndTheConnectionStaysKept() throws {
        let backend = try Backend(.keepAlive)
        defer { backend.stop() }
        let (_, loop) = try keptConnection(to: backend)
        defer { loop.stop() }
        let outcomes = Outcomes()
        #expect(loop.submit(job(wanted: false, into: outcomes)))
        #expect(loop.submit(job(into: outcomes)))
        let all = try outcomes.wait(for: 1)
        #expect(all.count == 1 && body(all.first) == "ok", "the unwanted job finished nothing; the next used the connection")
        #expect(backend.accepted == 1)
    }

    /// RFC 9110 §9.2.2: a kept connection the target closes at the request is given back for a GET, which may go
    /// again on a new connection, and fails a POST, which may have reached the target.
    @Test(arguments: [HTTPRequest.Method.get, .post])
    func aKeptConnectionClosedAtTheRequest_GivesBackOnlyWhatMayGoAgain(method: HTTPRequest.Method) throws {
        let backend = try Backend(.closeAtTheSecond)
        defer { backend.stop() }
        let (_, loop) = try keptConnection(to: backend)
        defer { loop.stop() }
        let outcomes = Outcomes()
        #expect(loop.submit(job(method, into: outcomes)))
        switch try outcomes.wait(for: 1).first {
        case .notSent?: #expect(method == .get)
        case .failure(.connectionReset)?: #expect(method == .post)
        default: Issue.record("unexpected \(outcomes.all)")
        }
    }

    @Test func aSilentTarget_FailsAtTheTimeout() throws {
        let backend = try Backend(.silent)
        defer { backend.stop() }
        // The first exchange makes the kept connection: the silent backend cannot, so a connection is made by hand.
        let client = UpstreamClient(host: "127.0.0.1", port: backend.port, timeout: 0.3)
        guard case .success(let fd) = POSIX.connect(to: try POSIX.resolve(host: "127.0.0.1", port: backend.port).get(),
                                                   deadline: POSIX.monotonicNanoseconds() + 2_000_000_000) else {
            throw Failure("no connection")
        }
        client.idle.put(fd)
        let loop = try UpstreamLoop(idle: client.idle, timeout: 0.3)
        defer { loop.stop() }
        let outcomes = Outcomes()
        let started = Date()
        #expect(loop.submit(job(into: outcomes)))
        guard case .failure(.timedOut(let seconds))? = try outcomes.wait(for: 1).first else {
            Issue.record("expected a timeout, got \(outcomes.all)")
            return
        }
        #expect(seconds == 0.3)
        #expect(Date().timeIntervalSince(started) >= 0.25)
    }

    @Test func stopping_FailsWhatIsInFlight_AndRefusesMore() throws {
        let backend = try Backend(.silent)
        defer { backend.stop() }
        let client = UpstreamClient(host: "127.0.0.1", port: backend.port, timeout: 30)
        guard case .success(let fd) = POSIX.connect(to: try POSIX.resolve(host: "127.0.0.1", port: backend.port).get(),
                                                   deadline: POSIX.monotonicNanoseconds() + 2_000_000_000) else {
            throw Failure("no connection")
        }
        client.idle.put(fd)
        let loop = try UpstreamLoop(idle: client.idle, timeout: 30)
        let outcomes = Outcomes()
        #expect(loop.submit(job(into: outcomes)))
        Thread.sleep(forTimeInterval: 0.1)
        loop.stop()
        guard case .failure(.failed(let reason))? = try outcomes.wait(for: 1).first else {
            Issue.record("expected a failure, got \(outcomes.all)")
            return
        }
        #expect(reason.contains("stopped"))
        #expect(!loop.submit(job(into: outcomes)))
    }

    /// A body that streams on is handed over once its head is read, with what was read of it: the caller reads the
    /// rest on the same connection, and gets every byte.
    @Test func aStreamedBody_IsHandedOff_AndTheCallerGetsEveryByte() throws {
        let size = 3 << 20
        let backend = try Backend(.large(size))
        defer { backend.stop() }
        let (client, loop) = try keptConnection(to: backend)
        defer { loop.stop() }
        let outcomes = Outcomes()
        #expect(loop.submit(job(streams: true, into: outcomes)))
        guard case .handOff(let handOff)? = try outcomes.wait(for: 1).first else {
            Issue.record("expected a hand-off, got \(outcomes.all)")
            return
        }
        guard case .success(let response) = client.resume(handOff, streaming: nil) else {
            Issue.record("the rest of the body was not read")
            return
        }
        #expect(response.status == 200 && response.body.count == size)
        #expect(response.body.enumerated().allSatisfy { $0.element == UInt8($0.offset % 251) })
        #expect(backend.accepted == 1)
    }
}
