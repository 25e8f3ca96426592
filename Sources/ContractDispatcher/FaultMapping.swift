#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import HTTPCore

/// What a client sees of a ``Reply`` without the socket: a response, or the `URLError` URLSession reports
/// on Apple platforms when the server carries out each fault over TCP.
enum FaultMapping {
    static func outcome(of reply: Reply, for request: HTTPRequest, url: URL, timeout: TimeInterval) async throws
        -> (Data, HTTPURLResponse)
    {
        switch reply.action {
        case .respond(let response):
            let omitBody = request.isHead || response.status.forbidsBody
            return (omitBody ? Data() : Data(response.body), try httpResponse(response, url: url))
        case .stream(let response, let stream):
            // A paced body: waited out as a socket would take it. Any other stream (the admin API's events)
            // needs a socket to be useful.
            guard let (body, parts) = stream.readAll() else {
                // An event stream needs a socket; ended here, so its producer stops and nothing keeps it open.
                stream.finish()
                throw URLError(.unsupportedURL)
            }
            let omitBody = request.isHead || response.status.forbidsBody
            // A HEAD gets the head at once, as over a socket.
            if parts > 1 && !omitBody { try await Task.sleep(nanoseconds: UInt64(parts - 1) * stream.interval) }
            let full = HTTPResponse(status: response.status, head: response.head, body: body)
            return (omitBody ? Data() : Data(body), try httpResponse(full, url: url))
        case .upgrade(_, let channel):
            // A WebSocket needs a socket; ended here, so that its script stops.
            channel.lost()
            throw URLError(.unsupportedURL)
        case .later:
            // A reply relayed from an upstream (--proxy) needs the server's upstream client and a socket.
            throw URLError(.unsupportedURL)
        case .transport(let action):
            switch action {
            case .reset, .close, .truncate:
                throw URLError(.networkConnectionLost)
            case .sendThenClose:
                throw URLError(.cannotParseResponse)
            case .hold(let milliseconds):
                // The client gives up at its timeout; if the server closes first, the connection is lost.
                let waited = min(Double(milliseconds) / 1000, timeout > 0 ? timeout : .infinity)
                try await Task.sleep(nanoseconds: UInt64(waited * 1_000_000_000))
                throw URLError(waited >= timeout && timeout > 0 ? .timedOut : .networkConnectionLost)
            }
        }
    }

    /// The status and header fields of `response`'s prepared head.
    static func httpResponse(_ response: HTTPResponse, url: URL) throws -> HTTPURLResponse {
        var fields: [String: String] = [:]
        let lines = String(decoding: response.head, as: UTF8.self).split(separator: "\r\n").dropFirst()
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = String(line[..<colon])
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            // Repeated fields are joined as URLSession joins them.
            fields[name] = fields[name].map { $0 + ", " + value } ?? value
        }
        if !response.status.forbidsBody { fields["Content-Length"] = String(response.body.count) }
        guard let http = HTTPURLResponse(url: url, statusCode: response.status.code, httpVersion: "HTTP/1.1",
                                         headerFields: fields) else { throw URLError(.badServerResponse) }
        return http
    }
}
