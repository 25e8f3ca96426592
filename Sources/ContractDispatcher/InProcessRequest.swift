import Foundation
import HTTPCore

/// A `URLRequest`'s parts as the server's parser reads them: written as HTTP/1.1 bytes, with the
/// `Host` and `Content-Length` URLSession would add, and parsed by the same parser a socket feeds, so
/// the mock layer sees exactly what it would see over TCP.
enum InProcessRequest {
    static func parse(method: String, url: URL, headers: [String: String], body: Data) throws -> HTTPRequest {
        // As written, percent-escapes kept: `url.path` would decode `%2F` into a segment break.
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let path = components?.percentEncodedPath ?? url.path
        var target = path.isEmpty ? "/" : path
        if let query = components?.percentEncodedQuery { target += "?" + query }
        var head = "\(method) \(target) HTTP/1.1\r\n"
        let given = Set(headers.keys.map { $0.lowercased() })
        if !given.contains("host") { head += "Host: \(url.host ?? "localhost")\(url.port.map { ":\($0)" } ?? "")\r\n" }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) where name.lowercased() != "content-length" {
            head += "\(name): \(value)\r\n"
        }
        if !body.isEmpty || ["POST", "PUT", "PATCH"].contains(method) { head += "Content-Length: \(body.count)\r\n" }
        let bytes = Array((head + "\r\n").utf8) + Array(body)
        switch HTTPRequestParser.parseAll(bytes) {
        case .request(let request, _):
            return request
        case .needMore, .failure, .bodyOffered:
            // URLSession refuses such a request before sending it, too.
            throw URLError(.badURL)
        }
    }
}
