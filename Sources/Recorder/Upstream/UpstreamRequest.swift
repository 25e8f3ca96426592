import HTTPCore

/// The bytes a proxy sends the target for a client's request: the target's base path joined with the
/// request's, end-to-end header fields as received, `Host` naming the target, `Via` with this hop, and the body
/// framed by `Content-Length`; the connection stays open for the next request (``IdleConnections``). For an `https://` target
/// the bytes go to the TLS bridge, which joins the base path itself.
enum UpstreamRequest {
    /// Fields the proxy sets itself, besides the hop-by-hop ones.
    private static let replaced: Set<String> = ["host", "content-length", "expect", "via"]
    /// What is not sent on as received: ``replaced``, and the TLS bridge's token (the proxy's own is added).
    private static let dropped = replaced.union([BridgeFailure.tokenField.lowercased()])
    /// ``dropped``, and `Accept-Encoding` (the proxy asks for `identity` itself).
    private static let droppedWhenRecording = dropped.union(["accept-encoding"])

    /// - Parameter recording: Asks for the body uncompressed (`Accept-Encoding: identity`, whatever the client
    ///   accepts; URLSession always offers gzip): a compressed body could not be searched for secrets.
    /// - Parameter bridgeToken: For an `https://` target, the token the TLS bridge demands (``BridgeFailure/tokenField``).
    static func bytes(for request: HTTPRequest, target: UpstreamTarget, recording: Bool = false,
                      bridgeToken: String? = nil) -> [UInt8] {
        let fields = request.headers.fields
        let path = target.isSecure
            ? String(request.path) + (request.query.map { "?" + $0 } ?? "")
            : target.requestTarget(path: request.path, query: request.query)
        var head = "\(request.method) \(path) HTTP/1.1\r\n"
        head += "Host: \(target.hostField)\r\n"
        for field in HopByHop.endToEnd(fields, alsoDropping: recording ? droppedWhenRecording : dropped) {
            head += "\(field.name): \(field.value)\r\n"
        }
        if recording { head += "Accept-Encoding: identity\r\n" }
        if let bridgeToken { head += "\(BridgeFailure.tokenField): \(bridgeToken)\r\n" }
        let via = HopByHop.via(after: fields)
        head += "\(via.name): \(via.value)\r\n"
        if !request.body.isEmpty || ["POST", "PUT", "PATCH"].contains(request.method) {
            head += "Content-Length: \(request.body.count)\r\n"
        }
        head += "\r\n"
        return Array(head.utf8) + request.body
    }
}
