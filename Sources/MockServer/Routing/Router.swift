import ContractModel
import HTTPCore

/// Finds the route (the prepared contract endpoint) of a request by method and path template.
///
/// The templates form a segment tree: one node per path segment, with a literal child per literal
/// text and at most one parameter child, shared by every template with a parameter there
/// (`/a/{id}` and `/a/{key}` end at the same node). A request walks the tree one segment at a time,
/// so matching costs one look-up per segment (a few string comparisons, or one hash where a node has
/// many literal children) and more only where it must backtrack (below): the same with 10 endpoints
/// or 1,000.
///
/// Precedence, whatever the order of the contract files:
/// - At each segment the literal child is tried before the parameter child, so the template whose
///   first literal comes earliest wins: `/question/today` before `/question/{index}`, and for
///   `/a/b/c`, `/a/b/{x}` before `/a/{y}/c`, even `/a/b/{x}/{z}` before `/a/{y}/c/d` for `/a/b/c/d`
///   (the count of parameters plays no part).
/// - If the literal subtree holds no route for the path and method, the parameter child is tried
///   next (backtracking), so `/a/q/c` still reaches `/a/{y}/c`.
/// - Among the endpoints of one node (the same template up to parameter names), the first in
///   contract order that takes the method wins; a GET endpoint also takes HEAD.
///
/// A node whose path matches but whose endpoints do not take the method adds their methods (HEAD
/// after GET) to the allow list and the search goes on; only when no endpoint takes both path and
/// method is the answer ``Match/methodNotAllowed(allow:)``, listing each method once in the order
/// the nodes were tried, endpoints in contract order within a node.
struct Router: Sendable {
    enum Match {
        case route(Route, parameters: [String: String])
        /// The path exists, but not for this method; `allow` lists the methods that do.
        case methodNotAllowed(allow: [HTTPRequest.Method])
        case notFound
    }

    private struct Node: Sendable {
        /// The literal children's texts, for building the tree (their nodes are in ``spans``). Two texts that Swift
        /// counts as equal (canonically equivalent Unicode) are one child, the first one's bytes.
        var literals: [String] = []
        /// Where each literal child's text lies in ``Router/literalBytes``, and its node: what a request's segment is
        /// compared with, in the order of ``literals``.
        var spans: [(start: Int, count: Int, node: Int)] = []
        /// Positions in ``literals`` by text, once there are more than ``scanLimit``; empty until then.
        var index: [String: Int] = [:]
        var parameter: Int?
        /// The endpoints whose template ends here, in contract order.
        var routes: [Route] = []

        /// Up to this many literal children are compared in turn: comparing a few short strings costs
        /// less than hashing one.
        static let scanLimit = 4

        /// The child for `text` while the tree is built (by Swift's string equality).
        func literal(_ text: String) -> Int? {
            guard literals.count > Self.scanLimit else { return literals.firstIndex(of: text).map { spans[$0].node } }
            return index[text].map { spans[$0].node }
        }

        mutating func add(literal text: String, node: Int, at start: Int) {
            literals.append(text)
            spans.append((start, text.utf8.count, node))
            if literals.count == Self.scanLimit + 1 {
                index = Dictionary(uniqueKeysWithValues: literals.indices.map { (literals[$0], $0) })
            } else if literals.count > Self.scanLimit + 1 {
                index[text] = literals.count - 1
            }
        }
    }

    /// The tree in one array, root first; children are indices into it.
    private let nodes: [Node]
    /// Every literal's UTF-8 bytes, end to end (see ``Node/spans``).
    private let literalBytes: [UInt8]
    /// The most segments of any template; a longer path matches nothing.
    private let depth: Int

    init(routes: [Route]) {
        var nodes = [Node()]
        var literalBytes: [UInt8] = []
        var depth = 0
        for route in routes {
            var node = 0
            for segment in route.path.segments {
                let child: Int?
                switch segment {
                case .literal(let text): child = nodes[node].literal(text)
                case .parameter: child = nodes[node].parameter
                }
                if let child {
                    node = child
                    continue
                }
                nodes.append(Node())
                switch segment {
                case .literal(let text):
                    nodes[node].add(literal: text, node: nodes.count - 1, at: literalBytes.count)
                    literalBytes += text.utf8
                case .parameter: nodes[node].parameter = nodes.count - 1
                }
                node = nodes.count - 1
            }
            nodes[node].routes.append(route)
            depth = max(depth, route.path.segments.count)
        }
        self.nodes = nodes
        self.literalBytes = literalBytes
        self.depth = depth
    }

    /// - Parameter segments: The percent-decoded path segments (see ``PercentDecoding``), as the server
    ///   passes them: bytes on the stack (see ``PathSegments``), compared byte for byte. An empty segment
    ///   matches only an empty literal (as in `/a/` or `/a//b`), never a parameter.
    func match(method: HTTPRequest.Method, segments: PathSegments.Segments) -> Match {
        guard segments.count <= depth else { return .notFound }
        var allowed: [HTTPRequest.Method] = []
        // The parameter branches passed over for a literal one, to try when it dead-ends: at most one
        // per segment, kept on the stack rather than in recursion or a heap array.
        let found = withUnsafeTemporaryAllocation(of: (node: Int, level: Int).self, capacity: segments.count) {
            pending -> Route? in
            literalBytes.withUnsafeBytes { texts -> Route? in
                var untried = 0
                var node = 0
                var level = 0
                while true {
                    if level == segments.count {
                        if let route = route(at: node, for: method, allowed: &allowed) { return route }
                    } else {
                        let segment = segments[level]
                        let parameter = segment.isEmpty ? nil : nodes[node].parameter
                        if let literal = child(of: node, named: segment, texts: texts) {
                            if let parameter {
                                pending[untried] = (parameter, level + 1)
                                untried += 1
                            }
                            node = literal
                            level += 1
                            continue
                        }
                        if let parameter {
                            node = parameter
                            level += 1
                            continue
                        }
                    }
                    guard untried > 0 else { return nil }
                    untried -= 1
                    (node, level) = pending[untried]
                }
            }
        }
        guard let found else { return allowed.isEmpty ? .notFound : .methodNotAllowed(allow: allowed) }
        var parameters = [String: String]()
        if found.hasPathParameters {
            for (segment, value) in zip(found.path.segments, segments) {
                if case .parameter(let name) = segment { parameters[name] = PathSegments.text(value) }
            }
        }
        return .route(found, parameters: parameters)
    }

    /// The literal child of `node` whose text is `segment`, byte for byte (a look-up in the node's index is
    /// checked too, so the scan and the index match the same segments).
    /// - Parameter texts: ``literalBytes``.
    // Reads the node in place: a method of Node was passed a copy, three references retained and released. Compares
    // in ``literalBytes``: through the literals' strings, the loop that calls this cost more per request, and the
    // request more in all, though reading the buffer adds its retain and release.
    @inline(__always)
    private func child(of node: Int, named segment: UnsafeBufferPointer<UInt8>, texts: UnsafeRawBufferPointer) -> Int? {
        func matches(_ span: (start: Int, count: Int, node: Int)) -> Bool {
            ShortBytes.equal(UnsafeRawBufferPointer(segment),
                             UnsafeRawBufferPointer(rebasing: texts[span.start..<(span.start + span.count)]))
        }
        let count = nodes[node].spans.count
        guard count > Node.scanLimit else {
            for position in 0..<count where matches(nodes[node].spans[position]) { return nodes[node].spans[position].node }
            return nil
        }
        guard let position = nodes[node].index[PathSegments.text(segment)], matches(nodes[node].spans[position])
        else { return nil }
        return nodes[node].spans[position].node
    }

    /// The first endpoint of `node` that takes `method`; otherwise adds the node's methods to `allowed`.
    // The routes are read in place, and only the one returned is retained: a copy of the array, and each route
    // looked at, cost a retain and a release.
    private func route(at node: Int, for method: HTTPRequest.Method, allowed: inout [HTTPRequest.Method]) -> Route? {
        for index in nodes[node].routes.indices {
            let routeMethod = nodes[node].routes[index].method
            if routeMethod == method || (method == .head && routeMethod == .get) { return nodes[node].routes[index] }
        }
        for route in nodes[node].routes {
            for allow in route.method == .get ? [.get, .head] : [route.method] where !allowed.contains(allow) {
                allowed.append(allow)
            }
        }
        return nil
    }
}
