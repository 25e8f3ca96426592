import HTTPCore

/// The bytes a proxy sends the target for a client's request: the target's base path joined with the
/// request's, end-to-end header fields as received, `Host` naming the target, `Via` with this hop, and the body
/// framed by `Content-Length` (a body sent on as it arrives follows the head, framed as the client framed it); the
/// connection stays open for the next request (``IdleConnections``). For an `https://` target the bytes go to the
/// TLS bridge, which joins the base path itself.
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
    /// - Parameter streamed: The body that follows the head as it arrives, for its framing: its length, or chunked.
    static func bytes(for request: HTTPRequest, target: UpstreamTarget, recording: Bool = false,
                      bridgeToken: String? = nil, streamed: RequestBodyStream? = nil) -> [UInt8] {
        let fields = request.headers.fields
        // Written into one buffer: a relayed request's head is on the proxy's busiest path.
        var head: [UInt8] = []
        head.reserveCapacity(256 + request.body.count)
        func field(_ name: String, _ value: String) {
            head += name.utf8
            head += [UInt8(ascii: ":"), UInt8(ascii: " ")]
            head += value.utf8
            head += [13, 10]
        }
        head += request.method.rawValue.utf8
        head.append(UInt8(ascii: " "))
        // The target's base path joined with the client's path (`/api` + `/v1/items`), then the query; the TLS bridge
        // joins the base path itself.
        if !target.isSecure { head += target.basePath.utf8 }
        request.withPathBytes { path in
            if !target.isSecure && path.first != UInt8(ascii: "/") { head.append(UInt8(ascii: "/")) }
            head.append(contentsOf: path)
        }
        request.withQueryBytes { query in
            guard let query else { return }
            head.append(UInt8(ascii: "?"))
            head.append(contentsOf: query)
        }
        head += " HTTP/1.1\r\n".utf8
        field("Host", target.hostField)
        for end in HopByHop.endToEnd(fields, alsoDropping: recording ? droppedWhenRecording : dropped) {
            field(end.name, end.value)
        }
        if recording { field("Accept-Encoding", "identity") }
        if let bridgeToken { field(BridgeFailure.tokenField, bridgeToken) }
        head += "Via: ".utf8
        HopByHop.appendVia(after: fields.lazy.filter { HTTPHeaders.equal($0.name, "Via") }.map(\.value.utf8), to: &head)
        head += [13, 10]
        if let streamed {
            if let length = streamed.length {
                field("Content-Length", String(length))
            } else {
                field("Transfer-Encoding", "chunked")
            }
        } else if !request.body.isEmpty || request.method == .post || request.method == .put
                    || request.method == .patch {
            field("Content-Length", String(request.body.count))
        }
        head += [13, 10]
        head += request.body
        return head
    }
}
