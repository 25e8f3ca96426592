import Testing
@testable import HTTPCore

struct HTTPRequestParserTests {
    private func parse(_ text: String, limits: HTTPLimits = HTTPLimits()) -> HTTPRequestParser.Outcome {
        HTTPRequestParser.parseAll(Array(text.utf8), limits: limits)
    }

    private func request(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> HTTPRequest? {
        guard case .request(let request, let consumed) = parse(text) else {
            Issue.record("expected a request from \(text.debugDescription)", sourceLocation: sourceLocation)
            return nil
        }
        #expect(consumed == text.utf8.count, sourceLocation: sourceLocation)
        return request
    }

    private func failure(_ text: String, limits: HTTPLimits = HTTPLimits()) -> HTTPParseError? {
        if case .failure(let error) = parse(text, limits: limits) { return error }
        return nil
    }

    @Test func get_IsParsed_WithHeadersInOrder() throws {
        let parsed = try #require(request("GET /api/products?page_no=1 HTTP/1.1\r\nHost: a\r\nX-A:  1 \r\nx-a: 2\r\n\r\n"))
        #expect(parsed.method == "GET")
        #expect(parsed.target == "/api/products?page_no=1")
        #expect(parsed.path == "/api/products")
        #expect(parsed.query == "page_no=1")
        #expect(parsed.version == .http11)
        #expect(parsed.headers.values("X-A") == ["1", "2"])
        #expect(parsed.keepAlive)
    }

    /// A look-up by a prepared name finds what one by its text finds: in any case, the first of several, nothing for a
    /// name that is absent, whether or not a field has its length (`X-Mock-Session` and `X-Other-Field` are 14 bytes,
    /// as `Content-Length` is; and a name of 64 more bytes shares their length bit).
    @Test func lookUp_ByPreparedName_FindsWhatTheTextFinds() throws {
        let parsed = try #require(request("GET / HTTP/1.1\r\nHost: a\r\nX-Mock-Session: s1\r\nx-mock-session: s2\r\n"
            + "Content-Length: 0\r\n\r\n"))
        let long = "X-" + String(repeating: "a", count: 76)
        for name in ["X-Mock-Session", "x-mock-SESSION", "X-Other-Field", "Host", "HOST", "X-Mock-Scenario", "", long] {
            #expect(parsed.headers[HTTPHeaders.Name(name)] == parsed.headers[name], "\(name)")
        }
        #expect(parsed.headers[HTTPHeaders.Name("x-mock-session")] == "s1")
        #expect(parsed.headers[HTTPHeaders.Name("X-Other-Field")] == nil)
        #expect(parsed.headers.mayHaveName(ofLengthIn: HTTPHeaders.lengthBit("Cookie")) == false)
        #expect(parsed.headers.mayHaveName(ofLengthIn: HTTPHeaders.lengthBit("Upgrade-Field1")))
    }

    /// `isHead` is noted from the method's bytes: HEAD only, not another method of four bytes or one that starts so;
    /// and it and the method are written over when the next request is parsed into the same storage, of the same
    /// method or another, common or not.
    @Test(arguments: [("HEAD", true), ("POST", false), ("HEAE", false), ("GET", false), ("HEADS", false), ("head", false),
                      ("XEAD", false)])
    func isHead_IsTheMethodsBytes(method: String, isHead: Bool) throws {
        let parsed = try #require(request("\(method) / HTTP/1.1\r\nHost: a\r\n\r\n"))
        #expect(parsed.isHead == isHead)
        #expect(HTTPRequest(method: .init(rawValue: method), target: "/").isHead == isHead)
        var parser = HTTPRequestParser()
        var storage = HTTPRequest()
        for next in ["HEAD", method, method, "GET", "XEAD", "BREW", "GET"] {
            let text = Array("\(next) / HTTP/1.1\r\nHost: a\r\n\r\n".utf8)
            guard case .request = text.withUnsafeBytes({ parser.parse($0, into: &storage) }) else {
                Issue.record("no request from \(next)")
                return
            }
            #expect(storage.isHead == (next == "HEAD") && storage.method.rawValue == next, "\(next) after another")
        }
    }

    /// Someone typing into `nc` sends bare LFs; the request must be answered at once, not left to wait
    /// for a CRLF CRLF that never comes.
    @Test(arguments: ["GET / HTTP/1.1\nHost: a\n\n", "GET / HTTP/1.1\nHost: a\n", "GET / HTTP/1.1\r\nHost: a\n\n",
                      "GET / HTTP/1.1\r\nHost: a\n\r\n", "GET / HTTP/1.1\r\nHost: a\r\n\n\r\n"])
    func bareLineFeeds_Are400_BeforeTheHeadIsComplete(text: String) throws {
        let error = try #require(failure(text))
        #expect(error.status.code == 400)
        #expect(error.reason.contains("bare LF"))
    }

    @Test func body_IsParsed_WhenContentLengthIsProvided() throws {
        let parsed = try #require(request("POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello"))
        #expect(parsed.body == Array("hello".utf8))
    }

    @Test func chunkedBody_IsDecoded_WithExtensionsAndTrailers() throws {
        let text = "POST /p HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5;name=x\r\nhello\r\nA\r\n, world!!!\r\n0\r\nX-Trailer: 1\r\n\r\n"
        let parsed = try #require(request(text))
        #expect(String(decoding: parsed.body, as: UTF8.self) == "hello, world!!!")
    }

    @Test func needMore_UntilEveryByteArrives_ByteByByte() throws {
        let text = Array("POST /p HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n".utf8)
        var parser = HTTPRequestParser()
        for end in 1..<text.count {
            let outcome = text[..<end].withUnsafeBytes { parser.parse($0) }
            guard case .needMore = outcome else { Issue.record("complete after only \(end) bytes"); return }
        }
        let outcome = text.withUnsafeBytes { parser.parse($0) }
        guard case .request(let parsed, let consumed) = outcome else { Issue.record("incomplete"); return }
        #expect(parsed.body == Array("abc".utf8))
        #expect(consumed == text.count)
    }

    @Test func tokenBytes_AreExactlyRFC9110sTchar() {
        let tchar = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        for byte in UInt8.min...UInt8.max {
            #expect(HeadParser.isTokenByte(byte) == tchar.contains(byte), "byte \(byte)")
        }
    }

    @Test func pipelinedRequests_AreParsedOneAtATime() throws {
        let text = Array("GET /a HTTP/1.1\r\nHost: a\r\n\r\nGET /b HTTP/1.1\r\nHost: a\r\n\r\n".utf8)
        var parser = HTTPRequestParser()
        guard case .request(let first, let consumed) = text.withUnsafeBytes({ parser.parse($0) }) else {
            Issue.record("no first request"); return
        }
        #expect(first.path == "/a")
        guard case .request(let second, _) = text[consumed...].withUnsafeBytes({ parser.parse($0) }) else {
            Issue.record("no second request"); return
        }
        #expect(second.path == "/b")
    }

    @Test func leadingEmptyLines_AreIgnored() {
        #expect(request("\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n")?.path == "/")
    }

    @Test func http10_ClosesByDefault_AndKeepsAliveOnRequest() throws {
        #expect(request("GET / HTTP/1.0\r\n\r\n")?.keepAlive == false)
        #expect(request("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")?.keepAlive == true)
        #expect(request("GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")?.keepAlive == false)
    }

    /// The framing and connection facts come from the fields' bytes: names in any case, each option of a
    /// `Connection` list on its own.
    @Test func headerFacts_AreNoted_InAnyCase_AndConnectionOptionsOneByOne() throws {
        let listed = try #require(request("GET / HTTP/1.1\r\nHOST: a\r\nconnection: Upgrade ,\tCLOSE\r\n\r\n"))
        #expect(listed.facts.hostCount == 1 && listed.facts.connectionClose && !listed.keepAlive)
        let lookalike = try #require(request("GET / HTTP/1.1\r\nHost: a\r\nConnection: closed, keep-alives,\r\n\r\n"))
        #expect(!lookalike.facts.connectionClose && !lookalike.facts.connectionKeepAlive && lookalike.keepAlive)
        #expect(request("GET / HTTP/1.0\r\nConnection: x,Keep-Alive\r\n\r\n")?.keepAlive == true)
        let framing = try #require(request("POST / HTTP/1.1\r\nHost: a\r\nContent-LENGTH: 0\r\nEXPECT: 100-Continue\r\n\r\n"))
        #expect(framing.facts.hasContentLength && framing.facts.expectsContinue && !framing.facts.hasTransferEncoding)
        #expect(failure("GET / HTTP/1.1\r\nhost: a\r\nHost: b\r\n\r\n")?.status.code == 400)
        #expect(failure("GET / HTTP/1.1\r\nHosts: a\r\n\r\n")?.status.code == 400)
    }

    /// Common methods and field names come from literals, any other spelling as it was sent.
    @Test func methodsAndFieldNames_AreKeptAsSent_WhetherCommonOrNot() throws {
        for host in ["Host", "HOST", "hosT"] {
            let names = [host, "Accept", "accept", "User-Agent", "Connection", "Content-Type", "Content-type",
                         "Authorization", "Accept-Encoding", "Accept-Language", "Accept-Languagf", "X-Hos"]
            let fields = names.enumerated().map { "\($1): v\($0)\r\n" }.joined()
            let parsed = try #require(request("GET / HTTP/1.1\r\n\(fields)\r\n"))
            #expect(parsed.headers.fields.map(\.name) == names)
            #expect(parsed.headers.fields.map(\.value) == names.indices.map { "v\($0)" })
        }
        for method in ["GET", "POST", "HEAD", "PUT", "PATCH", "DELETE", "OPTIONS", "GOT", "PUTS", "get", "PROPFIND"] {
            #expect(request("\(method) / HTTP/1.1\r\nHost: a\r\n\r\n")?.method.rawValue == method)
        }
    }

    /// A target holds visible ASCII only; any other byte, wherever it is, is named as such.
    @Test func requestTarget_OfVisibleASCII_IsAccepted_AndAnyOtherByteRejected() throws {
        let visible = String(decoding: (33...126).map { UInt8($0) }, as: UTF8.self)
        #expect(try #require(request("GET /\(visible) HTTP/1.1\r\nHost: a\r\n\r\n")).target == "/" + visible)
        for odd in ["\u{7F}", "\t", "\u{1}", "é", "\u{0}"] {
            for target in ["/\(odd)", "/a\(odd)b", "/ab?c=\(odd)"] {
                let error = failure("GET \(target) HTTP/1.1\r\nHost: a\r\n\r\n")
                #expect(error?.reason == "malformed request target", "\(target.debugDescription)")
            }
        }
        // Without the space before the version the line itself is malformed, odd byte or not.
        #expect(failure("GET /a\u{1}b\r\nHost: a\r\n\r\n")?.reason == "malformed request line")
        #expect(failure("G(T /a\u{1} HTTP/1.1\r\nHost: a\r\n\r\n")?.reason == "malformed method")
    }

    @Test(arguments: [
        (" X: y", "obsolete line folding is not allowed"),
        ("\tX: y", "obsolete line folding is not allowed"),
        ("NoColon", "header line without a colon"),
        ("No Colon", "header line without a colon"),
        (": y", "empty header name"),
        ("X : y", "whitespace before a header colon"),
        ("X\t: y", "whitespace before a header colon"),
        ("X-A b: y", "malformed header name"),
        ("Ho(st: y", "malformed header name"),
        ("X: a\u{1}b", "control character in header value"),
        ("X: a\u{7F}", "control character in header value"),
        ("X: a long value with a control byte\u{1} well past its first eight", "control character in header value"),
        ("Host-Like: 0123456789abcdef\u{7F}", "control character in header value"),
        ("X: a\u{7F}cdefghijklmnop", "control character in header value"),
        ("Accept : y", "whitespace before a header colon"),
    ])
    func malformedField_IsRejected_WithItsReason(field: String, reason: String) {
        #expect(failure("GET / HTTP/1.1\r\nHost: a\r\n\(field)\r\n\r\n")?.reason == reason)
    }

    @Test func fieldValue_IsTrimmedOfSpacesAndTabs_AndMayBeEmptyOrHoldTabsAndHighBytes() throws {
        let parsed = try #require(request(
            "GET / HTTP/1.1\r\nHost: a\r\nX:  \t v \t w\t \r\nY:\r\nZ: \r\nA: é\r\nB: a long value,\twith tabs and é, past eight\r\n\r\n"))
        #expect(parsed.headers.fields.map(\.value) == ["a", "v \t w", "", "", "é", "a long value,\twith tabs and é, past eight"])
    }

    @Test func recycledRequest_StorageTakesTheNextRequest_ButACopyStillHeldIsLeftAlone() throws {
        var parser = HTTPRequestParser()
        func parse(_ text: String) throws -> HTTPRequest {
            let outcome = Array(text.utf8).withUnsafeBytes { parser.parse($0) }
            guard case .request(let request, _) = outcome else { throw HTTPParseError.bad("no request: \(outcome)") }
            return request
        }
        let first = try parse("GET /a/long/first/target?q=1 HTTP/1.1\r\nHost: a\r\nAccept: x\r\nConnection: close\r\n\r\n")
        let kept = first  // as the journal or a delayed reply would hold it
        parser.recycle(first)
        let second = try parse("GET /b HTTP/1.1\r\nHost: b\r\n\r\n")
        #expect(second.target == "/b" && second.path == "/b" && second.query == nil)
        #expect(second.headers.fields.map(\.name) == ["Host"] && second.headers["host"] == "b")
        #expect(second.headers["accept"] == nil && second.keepAlive)
        #expect(kept.target == "/a/long/first/target?q=1" && kept.headers.count == 3 && !kept.keepAlive)

        // Storage nothing else holds is written over: the third request is read as sent all the same.
        parser.recycle(second)
        let third = try parse("GET /c/d?e=f HTTP/1.1\r\nHost: c\r\nAccept: y\r\n\r\n")
        #expect(third.target == "/c/d?e=f" && third.path == "/c/d" && third.query == "e=f")
        #expect(third.headers.fields.map(\.value) == ["c", "y"] && third.headers["ACCEPT"] == "y")
    }

    /// A connection whose answer to one request processes the next from within (a reply that ends at once) parses
    /// into other storage than the head of a request whose body is awaited went to: the parser holds that head,
    /// so the body joins it, whatever storage comes next. (With the head left in the storage it was given, the
    /// body went to the other storage's request: `GET /other` with a body.)
    @Test(arguments: ["Content-Length: 5\r\n\r\n", "Transfer-Encoding: chunked\r\n\r\n5\r\n"])
    func awaitedBody_JoinsItsHead_WhateverStorageComesNext(framing: String) throws {
        var parser = HTTPRequestParser()
        let head = Array(("POST /upload?x=1 HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\n" + framing).utf8)
        let whole = head + Array((framing.hasPrefix("Content") ? "hello" : "hello\r\n0\r\n\r\n").utf8)
        var first = HTTPRequest()
        guard case .needMore = head.withUnsafeBytes({ parser.parse($0, into: &first) }) else {
            Issue.record("the body has not come")
            return
        }
        #expect(parser.awaitsContinue)
        // Other storage, holding another request.
        var other = try #require({ () -> HTTPRequest? in
            if case .request(let request, _) = HTTPRequestParser.parseAll(Array("GET /other HTTP/1.1\r\nHost: b\r\n\r\n".utf8)) {
                return request
            }
            return nil
        }())
        guard case .request(let consumed) = whole.withUnsafeBytes({ parser.parse($0, into: &other) }) else {
            Issue.record("no request")
            return
        }
        #expect(consumed == whole.count)
        #expect(other.method == "POST" && other.target == "/upload?x=1" && other.query == "x=1")
        #expect(other.headers["host"] == "a" && other.body == Array("hello".utf8))
        #expect(!parser.awaitsContinue && !parser.isReadingBody)
    }

    /// Each request's fields are written over the last one's, which keep their strings where the bytes are the
    /// same: every mix of kept, changed, added and dropped fields reads as sent.
    @Test func recycledFields_ReadAsSent_WhateverTheyShareWithTheLastRequest() throws {
        var parser = HTTPRequestParser()
        func parse(_ fields: [(String, String)]) throws -> [[String]] {
            let text = "GET / HTTP/1.1\r\n" + fields.map { "\($0): \($1)\r\n" }.joined() + "\r\n"
            let outcome = Array(text.utf8).withUnsafeBytes { parser.parse($0) }
            guard case .request(let request, _) = outcome else { throw HTTPParseError.bad("no request: \(outcome)") }
            defer { parser.recycle(request) }
            return request.headers.fields.map { [$0.name, $0.value] }
        }
        let token = "Bearer " + String(repeating: "t", count: 40)
        // Longer than 64 bytes: compared by the C library rather than a word at a time.
        let long = "Bearer " + String(repeating: "x", count: 300)
        let sequence: [[(String, String)]] = [
            [("Host", "a"), ("Authorization", long)],
            [("Host", "a"), ("Authorization", long)],
            [("Host", "a"), ("Authorization", String(long.dropLast()) + "y")],
            [("Host", "a"), ("Authorization", "y" + String(long.dropFirst()))],
            [("Host", "a"), ("User-Agent", "Shop/1 CFNetwork/1568.100.1 Darwin/24.0.0"), ("Authorization", token)],
            [("Host", "a"), ("User-Agent", "Shop/1 CFNetwork/1568.100.1 Darwin/24.0.0"), ("Authorization", token)],
            [("Host", "b"), ("User-Agent", "Shop/1 CFNetwork/1568.100.1 Darwin/24.0.1"), ("Authorization", token + "u")],
            [("host", "b"), ("X-Odd", "Shop/1 CFNetwork/1568.100.1 Darwin/24.0.1")],
            [("Host", "b"), ("X-Odd", "é"), ("X-Odd", "é"), ("Accept", "*/*"), ("X-New", "1")],
            [("Host", "b")],
            [("Host", "b"), ("X-Odd", "é"), ("X-Odd", "e")],
        ]
        for fields in sequence {
            #expect(try parse(fields) == fields.map { [$0.0, $0.1] })
        }
        // A lookup sees only this request's names, not the longer last one's.
        let outcome = Array("GET / HTTP/1.1\r\nHost: b\r\n\r\n".utf8).withUnsafeBytes { parser.parse($0) }
        guard case .request(let last, _) = outcome else { throw HTTPParseError.bad("no request: \(outcome)") }
        #expect(last.headers["x-odd"] == nil && last.headers["host"] == "b" && last.headers.count == 1)
    }

    /// Checks a word-at-a-time test against testing each of its eight bytes: every byte in every place among
    /// each filler, then random words of bytes near the edges, where a borrow or a carry could cross into the
    /// next byte.
    private func expectWordTest(_ test: (UInt64) -> Bool, agreesWith byteTest: (UInt8) -> Bool, fillers: [UInt8],
                                edges: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        func word(_ bytes: [UInt8]) -> UInt64 { bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) } }
        func expectAgreement(_ bytes: [UInt8]) {
            #expect(test(word(bytes)) == bytes.allSatisfy(byteTest), "\(bytes)", sourceLocation: sourceLocation)
        }
        for filler in fillers {
            for place in 0..<8 {
                for byte in UInt8.min...UInt8.max {
                    var bytes = [UInt8](repeating: filler, count: 8)
                    bytes[place] = byte
                    expectAgreement(bytes)
                }
            }
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50_000 { expectAgreement((0..<8).map { _ in edges.randomElement(using: &generator)! }) }
    }

    @Test func controlByteWordTest_AgreesWithTestingEachByte() {
        expectWordTest(HeadParser.noControlByte, agreesWith: { $0 >= 32 && $0 != 127 }, fillers: [32, 97, 126, 128, 255],
                       edges: [0, 1, 9, 31, 32, 33, 126, 127, 128, 129, 254, 255])
    }

    @Test func visibleWordTest_AgreesWithTestingEachByte() {
        // Fillers: the smallest, an ordinary and the largest visible byte.
        expectWordTest(HeadParser.allVisible, agreesWith: { (33...126).contains($0) }, fillers: [33, 97, 126],
                       edges: [0, 1, 31, 32, 33, 34, 125, 126, 127, 128, 129, 160, 254, 255])
    }

    @Test(arguments: [
        ("/a/b?x=1", "/a/b", "x=1"), ("/a?", "/a", ""), ("/?x=1?y", "/", "x=1?y"), ("/a%3Fb", "/a%3Fb", nil),
        ("http://example.com:8080/a/b?x=1", "/a/b", "x=1"), ("http://example.com", "/", nil),
        ("http://example.com?x=1", "/", "x=1"), ("HTTPS://Example.com/a", "/a", nil), ("*", "*", nil),
    ] as [(String, String, String?)])
    func target_YieldsPathAndQuery(target: String, path: String, query: String?) throws {
        let method = target == "*" ? "OPTIONS" : "GET"
        let parsed = try #require(request("\(method) \(target) HTTP/1.1\r\nHost: a\r\n\r\n"))
        #expect(parsed.target == target)
        #expect(parsed.path == path)
        #expect(parsed.query.map(String.init) == query)
        // Read in place, the same bytes.
        var (pathBytes, queryBytes): ([UInt8], [UInt8]?) = ([], [])
        parsed.withPathBytes { pathBytes = Array($0) }
        parsed.withQueryBytes { queryBytes = $0.map(Array.init) }
        #expect(pathBytes == Array(path.utf8) && queryBytes == query.map { Array($0.utf8) })
        // A request made in code finds the same.
        let made = HTTPRequest(method: .init(rawValue: method), target: target)
        #expect(made.target == target && made.path == path && made.query.map(String.init) == query)
        made.withPathBytes { pathBytes = Array($0) }
        made.withQueryBytes { queryBytes = $0.map(Array.init) }
        #expect(pathBytes == Array(path.utf8) && queryBytes == query.map { Array($0.utf8) })
    }

    /// The head a request keeps (what the journal records) is the bytes received, after any empty lines and
    /// without the empty line that ends it, written into the storage of the request before, of the same length or
    /// not; the target, path and query are read in place in it. A request made in code has the head it would be
    /// received as.
    @Test func head_IsTheBytesReceived_InTheStorageOfTheRequestBefore() throws {
        var parser = HTTPRequestParser()
        var storage = HTTPRequest()
        let requests: [(text: String, head: String, path: String, query: String?)] = [
            ("GET /a?x=1 HTTP/1.1\r\nHost: a\r\nX-B:  b \r\n\r\n", "GET /a?x=1 HTTP/1.1\r\nHost: a\r\nX-B:  b ", "/a", "x=1"),
            ("\r\nPOST /bb HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nhi",
             "POST /bb HTTP/1.1\r\nHost: a\r\nContent-Length: 2", "/bb", nil),
            ("GET /c?y=2 HTTP/1.1\r\nHost: c\r\nX-B:  c \r\n\r\n", "GET /c?y=2 HTTP/1.1\r\nHost: c\r\nX-B:  c ", "/c", "y=2"),
            ("GET /d?z=3 HTTP/1.1\r\nHost: d\r\nX-B:  d \r\n\r\n", "GET /d?z=3 HTTP/1.1\r\nHost: d\r\nX-B:  d ", "/d", "z=3"),
            ("OPTIONS * HTTP/1.0\r\n\r\n", "OPTIONS * HTTP/1.0", "*", nil),
        ]
        var lastStorage: UnsafePointer<UInt8>?
        for (text, head, path, query) in requests {
            guard case .request = Array(text.utf8).withUnsafeBytes({ parser.parse($0, into: &storage) }) else {
                Issue.record("no request from \(text.debugDescription)")
                return
            }
            #expect(String(decoding: storage.head, as: UTF8.self) == head)
            // The fourth head has the third's length: written over it, in the same storage.
            let address = storage.head.withUnsafeBufferPointer { $0.baseAddress }
            if path == "/d" { #expect(address == lastStorage) }
            lastStorage = address
            var (pathBytes, queryBytes): ([UInt8], [UInt8]?) = ([], [])
            storage.withPathBytes { pathBytes = Array($0) }
            storage.withQueryBytes { queryBytes = $0.map(Array.init) }
            #expect(pathBytes == Array(path.utf8) && queryBytes == query.map { Array($0.utf8) }, "\(head)")
            #expect(storage.target == path + (query.map { "?" + $0 } ?? ""))
            #expect(storage.isAsteriskForm == (path == "*"))
        }
        var headers = HTTPHeaders()
        headers.append(name: "Host", value: "a")
        headers.append(name: "X-B", value: "b c")
        let made = HTTPRequest(method: "PUT", target: "/e?f", version: .http10, headers: headers)
        #expect(String(decoding: made.head, as: UTF8.self) == "PUT /e?f HTTP/1.0\r\nHost: a\r\nX-B: b c")
    }

    @Test(arguments: [
        ("GET * HTTP/1.1", "* is only valid for OPTIONS"),
        ("GET ftp://example.com/a HTTP/1.1", "request target must start with / or http://"),
        ("GET http:/example.com/a HTTP/1.1", "request target must start with / or http://"),
        ("GET http:///a HTTP/1.1", "absolute target without a host"),
        ("GET http:// HTTP/1.1", "absolute target without a host"),
    ])
    func target_OfNoKnownForm_IsRejected(line: String, reason: String) {
        #expect(failure("\(line)\r\nHost: a\r\n\r\n")?.reason == reason)
    }

    @Test(arguments: [
        ("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd", 400),
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3, 4\r\n\r\nabcd", 400),
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: abc\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX", 400),
        ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n", 501),
        ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, gzip\r\n\r\n", 400),
        ("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost : a\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
        ("GET / HTTP/2.0\r\nHost: a\r\n\r\n", 505),
        ("GET / HTTX/1.1\r\nHost: a\r\n\r\n", 400),
        ("GET  / HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        ("G(T / HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        ("GET /a b HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        ("GET relative HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        ("GET * HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: a\rb\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: a\nX: b\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: a\r\nX: a\u{0}b\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: a\r\n: empty\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: a\r\nNoColon\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999\r\n\r\n", 413),
    ])
    func malformedRequests_AreRejected_WithStatus(text: String, status: Int) {
        #expect(failure(text)?.status.code == status, "\(text.debugDescription)")
    }

    @Test func requestLine_LongerThanLimit_Is414_EvenBeforeItEnds() {
        let limits = HTTPLimits(requestLineBytes: 64)
        #expect(failure("GET /" + String(repeating: "a", count: 100), limits: limits)?.status.code == 414)
        #expect(failure("GET /" + String(repeating: "a", count: 100) + " HTTP/1.1\r\nHost: a\r\n\r\n",
                        limits: limits)?.status.code == 414)
    }

    @Test func headerSection_OverLimits_Is431() {
        let limits = HTTPLimits(headerBytes: 128, headerCount: 3)
        let many = "GET / HTTP/1.1\r\nHost: a\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n"
        #expect(failure(many, limits: limits)?.status.code == 431)
        let huge = "GET / HTTP/1.1\r\nHost: a\r\nX: " + String(repeating: "v", count: 200) + "\r\n\r\n"
        #expect(failure(huge, limits: limits)?.status.code == 431)
        let unterminated = "GET / HTTP/1.1\r\nHost: a\r\nX: " + String(repeating: "v", count: 20_000)
        #expect(failure(unterminated, limits: HTTPLimits(requestLineBytes: 64, headerBytes: 128))?.status.code == 431)
    }

    @Test func body_OverLimit_Is413_ForLengthAndChunked() {
        let limits = HTTPLimits(bodyBytes: 8)
        #expect(failure("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 9\r\n\r\n", limits: limits)?.status.code == 413)
        let chunked = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nabcde\r\n5\r\n"
        #expect(failure(chunked, limits: limits)?.status.code == 413)
    }

    @Test func expectContinue_IsReported_WhileBodyIsAwaited() {
        var parser = HTTPRequestParser()
        let head = Array("POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n".utf8)
        guard case .needMore = head.withUnsafeBytes({ parser.parse($0) }) else { Issue.record("complete?"); return }
        #expect(parser.awaitsContinue)
        #expect(parser.isReadingBody)
    }

    /// Found by the fuzzer (a harness bug, not a parser bug): a bare LF early and an overlong request
    /// line; the whole input and its prefixes must all be rejected, never accepted or crash.
    @Test func fuzzFinding_BareLFWithOverlongLine_IsRejectedWholeAndInPieces() {
        let bytes = Array("GE https://age_/\nGET /api/produc3pa ".utf8) + Array(repeating: UInt8(ascii: "^"), count: 700)
            + [0x16, 0x16, 0x0D, 0x0A, 0x0D, 0x0A]
        let limits = HTTPLimits(requestLineBytes: 512, headerBytes: 2048, headerCount: 20, bodyBytes: 4096)
        guard case .failure = HTTPRequestParser.parseAll(bytes, limits: limits) else {
            Issue.record("accepted"); return
        }
        var parser = HTTPRequestParser(limits: limits)
        for end in [bytes.count / 3, 2 * bytes.count / 3, bytes.count] {
            switch bytes[..<end].withUnsafeBytes({ parser.parse($0) }) {
            case .needMore: continue
            case .failure: return
            case .request, .bodyOffered: Issue.record("accepted after \(end) bytes"); return
            }
        }
    }
}
