@testable import HTTPCore
import Testing
import TestSupport

/// The output queue over a real loopback socket: gathered writes of many buffers (the responses of pipelined
/// requests go out together), resumed in order after the socket fills.
@Suite(.blockingIO) struct OutboundQueueTests {
    @Test func manySmallBuffers_ArriveWhole_AndInOrder() throws {
        let (writer, reader) = try Self.connectedPair()
        defer { POSIX.close(writer); POSIX.close(reader) }
        let buffers = (0..<70).map { index in [UInt8](repeating: UInt8(index), count: 1 + index * 7) }
        var queue = OutboundQueue()
        for buffer in buffers { queue.enqueue(buffer) }

        let flushed = queue.flush(to: writer)
        #expect(flushed)
        #expect(queue.isEmpty)
        let received = try Self.read(buffers.joined().count, from: reader)
        #expect(received == Array(buffers.joined()))
    }

    @Test func buffersLargerThanTheSocketTakes_ResumeWhereTheyStopped() throws {
        let (writer, reader) = try Self.connectedPair()
        defer { POSIX.close(writer); POSIX.close(reader) }
        // 32 buffers of 300,000 bytes, 9.6 MB: more than loopback's socket buffers hold, so writes stop inside a
        // buffer. Each buffer is the pattern 0, 1, …, 250 from its own start, so a byte skipped or repeated shows.
        let pattern = (0..<300_251).map { UInt8($0 % 251) }
        let buffers = (0..<32).map { index in Array(pattern[(index * 7 % 251)..<(index * 7 % 251 + 300_000)]) }
        let expected = Array(buffers.joined())
        var queue = OutboundQueue()
        for buffer in buffers { queue.enqueue(buffer) }

        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var resumedInside = false
        let deadline = POSIX.monotonicNanoseconds() + 20_000_000_000
        while received.count < expected.count && POSIX.monotonicNanoseconds() < deadline {
            let open = queue.flush(to: writer)
            #expect(open)
            resumedInside = resumedInside || queue.isResumingInsideABuffer
            let result = buffer.withUnsafeMutableBytes { POSIX.read(reader, into: $0) }
            if case .bytes(let count) = result { received += buffer[..<count] }
        }
        #expect(resumedInside, "the socket never stopped a write inside a buffer: the test proves nothing")
        #expect(queue.isEmpty)
        #expect(received.count == expected.count)
        if received != expected {
            // The first byte that differs, rather than two 9.6 MB arrays in the failure message.
            let index = received.indices.first { $0 >= expected.count || received[$0] != expected[$0] }
            Issue.record("the bytes differ from the buffers' at offset \(index ?? received.count)")
        }
        // Emptied after a write that ended inside a buffer: the next buffer goes out whole, from its first byte.
        let next = Array(0..<200).map(UInt8.init)
        queue.enqueue(next)
        let flushed = queue.flush(to: writer)
        #expect(flushed)
        #expect(try Self.read(next.count, from: reader) == next)
    }

    /// A connected, non-blocking loopback pair: (the accepted end, the client end).
    private static func connectedPair() throws -> (Int32, Int32) {
        let listener = try POSIX.makeListener(host: "127.0.0.1", port: 0, backlog: 1)
        defer { POSIX.close(listener) }
        let deadline = POSIX.monotonicNanoseconds() + 5_000_000_000
        let addresses = try POSIX.resolve(host: "127.0.0.1", port: POSIX.boundPort(listener)).get()
        let client = try POSIX.connect(to: addresses, deadline: deadline).get()
        while POSIX.monotonicNanoseconds() < deadline {
            if case .accepted(let accepted) = POSIX.accept(listener) { return (accepted, client) }
        }
        POSIX.close(client)
        throw SocketError.failed("accept")
    }

    private static func read(_ count: Int, from fd: Int32) throws -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let deadline = POSIX.monotonicNanoseconds() + 5_000_000_000
        while received.count < count && POSIX.monotonicNanoseconds() < deadline {
            let result = buffer.withUnsafeMutableBytes { POSIX.read(fd, into: $0) }
            if case .bytes(let got) = result { received += buffer[..<got] }
        }
        return received
    }
}
