#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// A WebSocket as an app uses one: send, receive, the messages as an `AsyncSequence`, close. A thin wrapper over
/// `URLSessionWebSocketTask`, for the mock server's endpoints with `"websocket": true` and for your backend's.
///
/// ```swift
/// let socket = WebSocketConnection(url: WebSocketConnection.url(path: "/chat", in: .local(port: 8080), session: "ui-1"))
/// try await socket.send(.text(#"{"type": "ping"}"#))
/// for try await message in socket.messages { … }
/// ```
///
/// On Linux, swift-corelibs-foundation's `URLSessionWebSocketTask` runs on libcurl, and only a libcurl built with
/// WebSocket support (7.86 or later, with it enabled) can open one; Debian's and Ubuntu's cannot, and every call
/// then throws `URLError(.unsupportedURL)` ("WebSockets not supported by libcurl"). Tests on Linux drive the mock
/// server's WebSockets with a client of their own instead.
public final class WebSocketConnection: @unchecked Sendable {
    // @unchecked: the only state is the task, which URLSession makes safe to use from any thread.

    /// One whole message.
    public enum Message: Sendable, Equatable {
        /// A text message.
        case text(String)
        /// A binary message.
        case binary(Data)
    }

    private let task: URLSessionWebSocketTask

    /// Opens a WebSocket to `url` (`ws://` or `wss://`), offering `protocols` as `Sec-WebSocket-Protocol`.
    public init(url: URL, protocols: [String] = [], session: URLSession = .shared) {
        task = session.webSocketTask(with: url, protocols: protocols)
        task.resume()
    }

    /// Opens a WebSocket with `request`'s URL and header fields (a token, `X-Mock-Session`).
    public init(request: URLRequest, session: URLSession = .shared) {
        task = session.webSocketTask(with: request)
        task.resume()
    }

    /// The `ws://` (or `wss://`) URL of `path` on `environment`'s server, with `?session=` when a mock session is
    /// named (a WebSocket's request can carry no `X-Mock-Session` from a browser, so the mock server reads either).
    public static func url(path: String, in environment: ServerEnvironment, session: String? = nil) -> URL? {
        guard var components = URLComponents(url: environment.baseURL, resolvingAgainstBaseURL: false) else { return nil }
        switch components.scheme?.lowercased() {
        case "http": components.scheme = "ws"
        case "https": components.scheme = "wss"
        case "ws", "wss": break
        default: return nil
        }
        let prefix = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
        components.path = prefix + (path.hasPrefix("/") ? path : "/" + path)
        if let session { components.queryItems = [URLQueryItem(name: "session", value: session)] }
        return components.url
    }

    /// Sends one message.
    public func send(_ message: Message) async throws {
        let sent: URLSessionWebSocketTask.Message = switch message {
        case .text(let text): .string(text)
        case .binary(let data): .data(data)
        }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            task.send(sent) { error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
    }

    /// The next message; throws once the socket is closed or failed.
    public func receive() async throws -> Message {
        try await withCheckedThrowingContinuation { continuation in
            task.receive { result in
                continuation.resume(with: result.flatMap { message in
                    switch message {
                    case .string(let text): .success(.text(text))
                    case .data(let data): .success(.binary(data))
                    @unknown default: .failure(URLError(.cannotDecodeContentData))
                    }
                })
            }
        }
    }

    /// The messages as they arrive. The sequence ends when the server closes the socket, and throws when it fails.
    public var messages: AsyncThrowingStream<Message, any Error> {
        AsyncThrowingStream { [self] in
            do {
                return try await receive()
            } catch {
                if closeCode != nil { return nil }
                throw error
            }
        }
    }

    /// Closes the socket with `code` and an optional `reason` (at most 123 bytes of UTF-8).
    public func close(code: URLSessionWebSocketTask.CloseCode = .normalClosure, reason: String? = nil) {
        task.cancel(with: code, reason: reason.map { Data($0.utf8) })
    }

    /// The close code the socket ended with, once it has: the server's, or the one given to ``close(code:reason:)``.
    public var closeCode: Int? {
        task.closeCode == .invalid ? nil : task.closeCode.rawValue
    }
}
