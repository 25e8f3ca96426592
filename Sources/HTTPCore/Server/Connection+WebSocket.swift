/// A connection after a WebSocket upgrade: the client's frames are read here and handed to the channel's handler;
/// pings and the close handshake are answered without it. Frames out are the channel's stream, written as any
/// pushed stream is (``pullStream()``).
extension Connection {
    /// Reads what the socket has (`fromSocket`), or only what is buffered already, and acts on every whole frame.
    func readFrames(fromSocket: Bool = true) {
        // A few reads a turn: a client that sends without pause must not keep the loop from its other connections
        // (the readiness is reported again next turn).
        var reads = 0
        while isOpen, let channel = webSocket, reads < Self.framesReadsPerTurn {
            reads += 1
            // A client that sends but does not read: once its output overflowed, it is dropped here, not after a
            // write timeout its sending would keep putting off.
            if channel.output.isDropped { return close() }
            if fromSocket {
                switch inbound.read(from: fd).result {
                case .bytes:
                    lastActivity = loop.wokeAt
                case .wouldBlock:
                    return
                case .closed:
                    // Gone without a close frame.
                    return close()
                }
            }
            // Replies sent while the frames are handled go out in one write after them, with no wake-up.
            channel.output.forgetWaker()
            defer { pullStream() }
            while let event = nextFrameEvent() {
                switch event {
                case .message(let message): channel.handler.received(message, on: channel)
                case .ping(let payload): channel.pong(payload)
                case .pong: break
                case .close(let code, let reason): channel.closedByClient(code: code, reason: reason)
                case .violation(let code, let reason): channel.violated(code: code, reason: reason)
                }
            }
            inbound.resetIfDrained()
            // After a close or a violation nothing more is read: the rest is discarded while the close goes out.
            if frameReader?.isDone == true {
                inbound.consumeAll()
                inbound.resetIfDrained()
                return
            }
            guard fromSocket else { return }
        }
    }

    /// How many reads of a WebSocket's frames a connection makes in one turn of its loop.
    static let framesReadsPerTurn = 16

    /// The next event in the buffered bytes, consuming its frame; `nil` when no whole frame is there.
    private func nextFrameEvent() -> WebSocketFrameReader.Event? {
        guard var reader = frameReader.take() else { return nil }
        defer { frameReader = reader }
        while true {
            let (event, consumed) = inbound.withUnconsumed { reader.next($0) }
            inbound.readIndex += consumed
            if let event { return event }
            if consumed == 0 { return nil }
        }
    }

    /// The close frame is written: the connection goes back to being an HTTP connection that closes once flushed.
    func endWebSocket() {
        webSocket = nil
        frameReader = nil
        inbound.consumeAll()
        inbound.resetIfDrained()
    }
}
