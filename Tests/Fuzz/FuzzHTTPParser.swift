// libFuzzer target for the HTTP request parser, the chunked decoder and percent-decoding (compiled
// with their sources by Tests/Fuzz/run.sh; not part of the package). Feeds the input whole and then
// in pieces, and checks that both agree and that nothing crashes, hangs or reads out of bounds.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let limits = HTTPLimits(requestLineBytes: 512, headerBytes: 2048, headerCount: 20, bodyBytes: 4096)
    let whole = HTTPRequestParser.parseAll(bytes, limits: limits)

    // The same bytes arriving in three reads must give the same outcome.
    var parser = HTTPRequestParser(limits: limits)
    var pieces: HTTPRequestParser.Outcome = .needMore
    for end in [size / 3, 2 * size / 3, size] {
        pieces = bytes[..<end].withUnsafeBytes { parser.parse($0) }
        if case .needMore = pieces { continue }
        break
    }
    checkStreamed(bytes, limits: limits, whole: whole)
    switch (whole, pieces) {
    case (.request(let a, let consumedA), .request(let b, let consumedB)):
        precondition(consumedA == consumedB && a.body == b.body && a.target == b.target, "split parse differs")
        checkRecycled(a, bytes: bytes, limits: limits)
        checkHead(a, bytes: bytes)
        precondition(consumedA <= size, "consumed more than was given")
        checkPercentDecoding(a)
        checkHeaderFacts(a)
    case (.failure(let error), _):
        precondition((400...505).contains(error.status.code), "a rejection without a 4xx/5xx status")
    default:
        // A prefix may trip a limit or a different check first; both are rejections, not bugs.
        break
    }
    return 0
}

/// Offered and handed out as it comes (every body offered), in three reads, a body must come out as the whole parse
/// reads it, ending at the same byte; a body the whole parse rejects as malformed must fail too (one it refuses for its
/// size alone is not limited when streamed).
private func checkStreamed(_ bytes: [UInt8], limits: HTTPLimits, whole: HTTPRequestParser.Outcome) {
    var offering = limits
    offering.streamedBodyBytes = 0
    var parser = HTTPRequestParser(limits: offering)
    parser.offersBodies = true
    guard case .bodyOffered(_, let headLength, _) = bytes.withUnsafeBytes({ parser.parse($0) }) else { return }
    parser.streamOfferedBody()
    var offset = headLength
    var body: [UInt8] = []
    var ended = false
    do {
        for end in [headLength + (bytes.count - headLength) / 3, headLength + 2 * (bytes.count - headLength) / 3, bytes.count]
        where !ended && end > offset {
            let step = try bytes[offset..<end].withUnsafeBytes { try parser.streamedBody(in: $0) }
            precondition(step.consumed <= end - offset, "a streamed body consumed more than was given")
            body += step.bytes
            offset += step.consumed
            ended = step.done
        }
    } catch {
        if case .request = whole { preconditionFailure("a streamed body failed where the whole parse read it: \(error)") }
        return
    }
    switch whole {
    case .request(let request, let consumed) where ended:
        precondition(body == request.body && offset == consumed, "a streamed body differs from the whole one")
    case .request:
        preconditionFailure("a streamed body did not end where the whole parse read it")
    case .failure(let error) where error.status.code != 413 && ended:
        preconditionFailure("a streamed body ended where the whole parse rejected it: \(error)")
    default:
        break
    }
}

/// Parsed into a recycled request's storage (a primer's with several fields, then the same request's, whose fields
/// the parser keeps where the bytes are the same), the request must read as it does parsed afresh.
private func checkRecycled(_ fresh: HTTPRequest, bytes: [UInt8], limits: HTTPLimits) {
    var parser = HTTPRequestParser(limits: limits)
    let primer = Array("GET /p HTTP/1.1\r\nHost: a\r\nX-A: é\r\nUser-Agent: a long value, past fifteen bytes\r\nh: \r\n\r\n".utf8)
    let first = primer.withUnsafeBytes { parser.parse($0) }
    guard case .request(let request, _) = first else { preconditionFailure("the primer did not parse") }
    parser.recycle(request)
    for round in 0..<2 {
        let again = bytes.withUnsafeBytes { parser.parse($0) }
        guard case .request(let recycled, _) = again else { preconditionFailure("a recycled parse failed") }
        precondition(recycled.headers.fields.map { [$0.name, $0.value] } == fresh.headers.fields.map { [$0.name, $0.value] },
                     "recycled fields differ")
        for field in fresh.headers.fields.prefix(4) {
            precondition(recycled.headers[field.name] == fresh.headers[field.name], "recycled look-up differs")
        }
        precondition(recycled.headers["x-a"] == fresh.headers["x-a"], "recycled look-up differs")
        precondition(recycled.head == fresh.head && recycled.target == fresh.target, "recycled head differs")
        if round == 0 { parser.recycle(recycled) }
    }
}

/// The head a request keeps (what the journal shows of it) must be the bytes received, and read back by `HeadFields`
/// as the parser read them.
private func checkHead(_ request: HTTPRequest, bytes: [UInt8]) {
    var start = 0
    while start + 1 < bytes.count && bytes[start] == 13 && bytes[start + 1] == 10 { start += 2 }
    let end = start + request.head.count
    precondition(bytes[start...].starts(with: request.head) && bytes[end...].starts(with: [13, 10, 13, 10]),
                 "the head is not the bytes received")
    let text = { (range: Range<Int>) in String(decoding: request.head[range], as: UTF8.self) }
    let line = HeadFields.requestLine(in: request.head)
    precondition(text(line.method) == request.method.rawValue && text(line.target) == request.target,
                 "the request line reads back differently")
    var fields: [[String]] = []
    HeadFields.forEach(in: request.head) { name, value in fields.append([text(name), text(value)]) }
    precondition(fields == request.headers.fields.map { [$0.name, $0.value] }, "the fields read back differently")
}

/// The allocation-free path split and query lookup must agree with splitting and decoding the obvious way.
private func checkPercentDecoding(_ request: HTTPRequest) {
    let segments = PercentDecoding.segments(of: request.path)
    let path = Array(request.path.utf8)
    if let slash = path.firstIndex(of: UInt8(ascii: "/")) {
        let parts = path[(slash + 1)...].split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        let decoded = parts.map { part in part.withUnsafeBufferPointer { PercentDecoding.decode($0) } }
        let expected: [String]? = decoded.contains { $0 == nil } ? nil : decoded.map { $0! }
        precondition(segments == expected, "path split disagrees")
    } else {
        precondition(segments == [], "a path without / has segments")
    }
    // The bytes read in place must be the path's and the query's.
    var pathBytes: [UInt8] = []
    request.withPathBytes { pathBytes = Array($0) }
    precondition(pathBytes == path, "path bytes disagree")
    var queryBytes: [UInt8]? = []
    request.withQueryBytes { queryBytes = $0.map(Array.init) }
    precondition(queryBytes == request.query.map { Array($0.utf8) }, "query bytes disagree")
    let query = request.query ?? ""
    let items = PercentDecoding.queryItems(query)
    precondition((items != nil) == PercentDecoding.isWellFormed(query), "well-formedness disagrees")
    guard let items else { return }
    for item in items.prefix(8) where !item.name.isEmpty {
        let first = items.first { $0.name.utf8.elementsEqual(item.name.utf8) }?.value
        precondition(PercentDecoding.firstValue(of: item.name, in: query) == first, "firstValue disagrees")
        var raw: String?? = .none
        request.withQueryBytes { bytes in
            raw = bytes.flatMap { PercentDecoding.firstValue(of: item.name, in: $0) }.map { PercentDecoding.decode($0) }
            // A query without a `%` is looked up as sent: the first decoded item's value all the same, and none
            // for a name holding a `=` (an item's name ends at its first).
            if let bytes, !PercentDecoding.hasEscape(bytes) {
                let told = PercentDecoding.firstValue(of: item.name, in: bytes, escaped: false)
                precondition(told.map { String(decoding: $0, as: UTF8.self) } == first, "firstValue of an unescaped query disagrees")
                precondition(PercentDecoding.firstValue(of: item.name + "=", in: bytes, escaped: false) == nil,
                             "a name with a = found in an unescaped query")
            }
        }
        precondition(raw.map { $0 ?? "" } == first, "firstValue on bytes disagrees")
    }
    checkQueryNames(request, items: items)
}

/// ``QueryNames`` looks up several names in one pass over a query without `%`: each must be found where the decoded
/// items have it first (the items' names, each with a prefix of it, itself with a `=` or a letter more, and itself
/// again; the empty name).
private func checkQueryNames(_ request: HTTPRequest, items: [(name: String, value: String)]) {
    var names: [String] = [""]
    for item in items.prefix(6) {
        names += [item.name, String(item.name.dropLast()), item.name + "=", item.name + "x", item.name]
    }
    request.withQueryBytes { bytes in
        guard let bytes, !PercentDecoding.hasEscape(bytes) else { return }
        let found = [Range<Int>?](unsafeUninitializedCapacity: names.count) { values, count in
            QueryNames(names).firstValues(inUnescaped: bytes, into: values)
            count = names.count
        }
        for (name, range) in zip(names, found) {
            let first = items.first { $0.name.utf8.elementsEqual(name.utf8) }?.value
            precondition(range.map { String(decoding: bytes[$0], as: UTF8.self) } == first, "QueryNames disagrees")
        }
    }
}

/// The facts noted from the fields' bytes must agree with reading the parsed fields the obvious way (on
/// bytes too: a string comparison would take a Kelvin sign for a K).
private func checkHeaderFacts(_ request: HTTPRequest) {
    func lowered<Text: StringProtocol>(_ text: Text) -> [UInt8] {
        var bytes = text.utf8.map { $0 >= 65 && $0 <= 90 ? $0 | 0x20 : $0 }
        while let last = bytes.last, last == 32 || last == 9 { bytes.removeLast() }
        while let first = bytes.first, first == 32 || first == 9 { bytes.removeFirst() }
        return bytes
    }
    func named(_ name: String) -> [[UInt8]] {
        request.headers.fields.filter { lowered($0.name) == Array(name.utf8) }.map { lowered($0.value) }
    }
    let options = named("connection").flatMap { $0.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) }
        .map { lowered(String(decoding: $0, as: UTF8.self)) }
    let facts = request.facts
    precondition(facts.hostCount == named("host").count, "Host count disagrees")
    precondition(facts.connectionClose == options.contains(Array("close".utf8)), "Connection: close disagrees")
    precondition(facts.connectionKeepAlive == options.contains(Array("keep-alive".utf8)),
                 "Connection: keep-alive disagrees")
    precondition(facts.expectsContinue == named("expect").contains(Array("100-continue".utf8)), "Expect disagrees")
    precondition(facts.hasContentLength == !named("content-length").isEmpty, "Content-Length disagrees")
    precondition(facts.hasTransferEncoding == !named("transfer-encoding").isEmpty, "Transfer-Encoding disagrees")
}
