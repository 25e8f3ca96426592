import ContractModel
import HTTPCore

/// Plays a WebSocket scenario (``WebSocketPlay``) on one socket: `onConnect` once the upgrade is done, a reply (or the
/// echo) for each client message, and the close when the script says. Messages with a `delayMs` go out in order on a
/// task of their own, so the event loop never waits; the rest go out at once. Every message, both ways, and the
/// socket's end are journaled.
final class ScriptedSocket: WebSocketHandler {
    private let play: WebSocketPlay
    private let journal: StreamJournal

    private struct State {
        /// Client messages answered so far (for `close.afterMessages`).
        var received = 0
        /// The batches of delayed messages still to send; later ones wait for the last.
        var pending = 0
        var last: Task<Void, Never>?
        /// The script's `close.afterMs`, waiting.
        var closing: Task<Void, Never>?
    }

    private let state = Locked(State())

    /// (It holds no reference to the table of open streams, which holds it: the caller adds it there.)
    init(_ play: WebSocketPlay, journal: StreamJournal) {
        self.play = play
        self.journal = journal
    }

    func opened(_ channel: WebSocketChannel) {
        let close = play.close
        // With neither limit, the script closes once its greeting is sent.
        let closesNow = close != nil && close?.afterMessages == nil && close?.afterMs == nil
        send(play.onConnect, on: channel, thenClose: closesNow)
        if let close, let afterMs = close.afterMs {
            let closing = Task.detached {
                try? await Task.sleep(nanoseconds: UInt64(afterMs) * 1_000_000)
                guard !Task.isCancelled else { return }
                channel.close(code: UInt16(close.code), reason: close.reason)
            }
            state.withValue { $0.closing = closing }
        }
    }

    func received(_ message: WebSocketMessage, on channel: WebSocketChannel) {
        journal.record(.received, message)
        let count = state.withValue { state -> Int in
            state.received += 1
            return state.received
        }
        let closes = play.close?.afterMessages.map { count >= $0 } ?? false
        send(play.answer(to: message) ?? [], on: channel, thenClose: closes)
    }

    func closed(_ channel: WebSocketChannel, ending: WebSocketChannel.Ending) {
        let reason: String = switch ending {
        case .closedByClient(let code, let reason): "closed by the client" + Self.describe(code, reason)
        case .closedByServer(let code, let reason): "closed by the server" + Self.describe(code, reason)
        case .violation(let code, let reason): "the client broke the protocol: \(reason); closed" + Self.describe(code, "")
        case .lost: "the connection ended without a close"
        }
        journal.record(.sent, .close, bytes: ([], false), size: 0, reason: reason)
        // Nothing waits on a closed socket: its delayed messages and its close stop sleeping (and let it go).
        state.withValue { state in
            state.last?.cancel()
            state.closing?.cancel()
        }
    }

    /// A message from a test or the dashboard (`POST /__mock/streams/{id}/send`): sent now, and journaled.
    func push(_ message: WebSocketMessage, on channel: WebSocketChannel) -> Bool {
        guard channel.isOpen else { return false }
        journal.record(.sent, message)
        return channel.send(message)
    }

    /// Sends `messages` in order, each after its delay, after any batch still waiting; then closes, if asked.
    private func send(_ messages: [WebSocketPlay.Outgoing], on channel: WebSocketChannel, thenClose: Bool) {
        let immediate = messages.allSatisfy { $0.delayMs == 0 }
        // The task is made under the lock, so that the next batch waits for this one, whichever thread sends it.
        let queued = state.withValue { current -> Bool in
            guard !(immediate && current.pending == 0) else { return false }
            current.pending += 1
            let previous = current.last
            current.last = Task.detached { [self] in
                await previous?.value
                for outgoing in messages {
                    if outgoing.delayMs > 0 { try? await Task.sleep(nanoseconds: UInt64(outgoing.delayMs) * 1_000_000) }
                    // Journaled first, so that the journal never shows a client's answer before what it answered.
                    guard !Task.isCancelled, channel.isOpen else { break }
                    journal.record(.sent, outgoing.message)
                    guard channel.send(outgoing.message) else { break }
                }
                if thenClose && !Task.isCancelled { closeByScript(channel) }
                state.withValue { $0.pending -= 1 }
            }
            return true
        }
        guard !queued else { return }
        for outgoing in messages where channel.isOpen {
            journal.record(.sent, outgoing.message)
            channel.send(outgoing.message)
        }
        if thenClose { closeByScript(channel) }
    }

    private func closeByScript(_ channel: WebSocketChannel) {
        guard let close = play.close else { return }
        channel.close(code: UInt16(close.code), reason: close.reason)
    }

    private static func describe(_ code: UInt16?, _ reason: String) -> String {
        guard let code else { return " without a code" }
        return " with \(code)" + (reason.isEmpty ? "" : " \"\(reason)\"")
    }
}
