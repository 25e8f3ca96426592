import MockProtocol

/// What a scenario may read of its endpoint's requests: the parameters its fixture path may name (the path's
/// parameters and the declared query parameters), and the declared types a `when` rule is checked against.
struct FixtureParameters {
    let path: [String]
    let query: [String]
    var request = RequestRequirements()
    /// The endpoint accepts WebSocket upgrades: its scenarios may be scripts.
    var isWebSocket = false

    func contains(_ name: String) -> Bool { path.contains(name) || query.contains(name) }
}

extension ContractParser {
    // MARK: - Scenarios

    mutating func parseScenario(_ value: JSONValue, parameters: FixtureParameters, at path: String) -> Scenario? {
        guard let fields = object(value, at: path, keys: ContractSchema.keys(of: .scenario)) else { return nil }
        let name = requiredString(fields["name"], at: path + ".name")
        if let name, !Self.isWord(name) {
            report(path + ".name", "must be a non-empty word without spaces")
        }
        if fields["sequence"] != nil { return parseSequence(fields, name: name, parameters: parameters, at: path) }
        if fields["afterLast"] != nil && fields["events"] == nil {
            report(path + ".afterLast", "belongs to a scenario with a \"sequence\" or \"events\"")
        }
        let events = parseEvents(fields["events"], afterLast: fields["afterLast"], at: path)
        let webSocket = parseWebSocket(fields, at: path)
        if webSocket != nil && !parameters.isWebSocket {
            report(path, "has \(WebSocketScript.keys.filter { fields[$0] != nil }.joined(separator: ", ")), which belong to "
                + "an endpoint with \"websocket\": true")
        }
        if webSocket != nil, let clash = ["status", "fault", "events", "body", "template", "proxy"].first(where: { fields[$0] != nil }) {
            report(path + "." + clash, "a WebSocket script answers the upgrade with 101; a scenario that refuses it "
                + "has \"status\" or \"fault\" and no script")
        }
        if parameters.isWebSocket && fields["events"] != nil {
            report(path + ".events", "a WebSocket endpoint sends messages (onConnect, replies), not server-sent events")
        }
        if optionalBool(fields["proxy"], at: path + ".proxy") == true { return parseProxy(fields, name: name, parameters: parameters, at: path) }
        let status = integer(fields["status"], at: path + ".status", in: 200...599)
        let faultName = optionalString(fields["fault"], at: path + ".fault")
        let fault = faultName.flatMap(Fault.init(rawValue:))
        if let faultName, fault == nil {
            report(path + ".fault", "\"\(faultName)\" is not one of "
                + Fault.allCases.map(\.rawValue).joined(separator: ", "))
        }
        if fields["events"] != nil && (fields["body"] != nil || faultName != nil) {
            report(path, "has \"events\" and \"\(faultName != nil ? "fault" : "body")\"; an event stream is its own body")
        }
        if (status == nil) == (faultName == nil) && fields["status"] == nil && fields["events"] == nil && webSocket == nil {
            report(path, parameters.isWebSocket
                ? "needs a script (onConnect, replies, echo, close), or \"status\" or \"fault\" to refuse the upgrade"
                : "needs either \"status\", \"fault\", \"events\" or \"sequence\"")
        } else if fields["status"] != nil && faultName != nil {
            report(path, "has both \"status\" and \"fault\"; a fault sends no status")
        }
        let body = optionalString(fields["body"], at: path + ".body")
        if let body { checkFixturePath(body, parameters: parameters, at: path + ".body") }
        let fallback = parseFallback(fields["fallback"], body: body, parameters: parameters, at: path + ".fallback")
        let isTemplate = optionalBool(fields["template"], at: path + ".template") ?? false
        if isTemplate && body == nil && fields["events"] == nil {
            report(path + ".template", "a template needs a \"body\" fixture (or \"events\") to fill in")
        }
        let headers = stringMap(fields["headers"], at: path + ".headers")
        checkHeaders(headers, at: path + ".headers")
        let contentType = optionalString(fields["contentType"], at: path + ".contentType")
        let delayMs = integer(fields["delayMs"], at: path + ".delayMs", in: 0...60_000) ?? 0
        let holdMs = integer(fields["holdMs"], at: path + ".holdMs", in: 1...120_000) ?? 10_000
        let description = optionalString(fields["description"], at: path + ".description")
        let setState = parseSetState(fields["setState"], at: path + ".setState")
        let expect = parseExpectation(fields["expect"], at: path + ".expect")
        if let expect { checkConsistency(expect: expect, status: status, fault: fault, at: path + ".expect") }
        let latency = parseLatency(fields["latency"], at: path + ".latency")
        let bandwidth = parseBandwidth(fields["bandwidth"], at: path + ".bandwidth")
        let dribble = parseDribble(fields["dribble"], at: path + ".dribble")
        let when = parseWhen(fields["when"], parameters: parameters, at: path + ".when")
        let verify = parseVerify(fields["verify"], parameters: parameters.path, at: path + ".verify")
        let verifyStatus = parseVerifyStatus(fields["verifyStatus"], at: path + ".verifyStatus")
        if bandwidth != nil && dribble != nil { report(path, "has both \"bandwidth\" and \"dribble\"; a body has one pace") }
        if fault != nil && (bandwidth != nil || dribble != nil) {
            report(path, "a fault sends no body to pace; drop \"bandwidth\" or \"dribble\"")
        }
        guard let name, let expect, status != nil || fault != nil || events != nil || webSocket != nil else { return nil }
        var scenario = Scenario(name: name, status: status ?? (events != nil ? 200 : nil), body: body, fallback: fallback, isTemplate: isTemplate,
                                headers: headers, contentType: contentType, fault: fault, delayMs: delayMs, holdMs: holdMs,
                                expect: expect, description: description, sequence: nil, setState: setState)
        scenario.latency = latency
        scenario.bandwidth = bandwidth
        scenario.dribble = dribble
        scenario.when = when
        scenario.verify = verify
        scenario.verifyStatus = verifyStatus
        scenario.events = events
        scenario.webSocket = webSocket
        return scenario
    }

    /// The required `expect`: a result the client maps to, or a problem naming those there are.
    private mutating func parseExpectation(_ value: JSONValue?, at path: String) -> Expectation? {
        guard let name = requiredString(value, at: path) else { return nil }
        guard let expect = Expectation(rawValue: name) else {
            report(path, "\"\(name)\" is not one of " + Expectation.allCases.map(\.rawValue).joined(separator: ", "))
            return nil
        }
        return expect
    }

    /// A scenario that passes the request through to the backend given with `--proxy`: the backend's answer is
    /// relayed, so nothing of an answer may be set; a wait, a state change and the expected result may.
    private mutating func parseProxy(_ fields: [String: JSONValue], name: String?, parameters: FixtureParameters,
                                     at path: String) -> Scenario? {
        for key in ContractSchema.answerKeys where fields[key] != nil {
            report(path + "." + key, "a scenario with \"proxy\": true relays the backend's answer; drop \"\(key)\"")
        }
        let delayMs = integer(fields["delayMs"], at: path + ".delayMs", in: 0...60_000) ?? 0
        let description = optionalString(fields["description"], at: path + ".description")
        let setState = parseSetState(fields["setState"], at: path + ".setState")
        let expect = parseExpectation(fields["expect"], at: path + ".expect")
        let latency = parseLatency(fields["latency"], at: path + ".latency")
        let when = parseWhen(fields["when"], parameters: parameters, at: path + ".when")
        let verify = parseVerify(fields["verify"], parameters: parameters.path, at: path + ".verify")
        let verifyStatus = parseVerifyStatus(fields["verifyStatus"], at: path + ".verifyStatus")
        guard let name, let expect else { return nil }
        var scenario = Scenario(name: name, status: nil, body: nil, fallback: nil, isTemplate: false, headers: [:],
                                contentType: nil, fault: nil, delayMs: delayMs, holdMs: 10_000, expect: expect,
                                description: description, sequence: nil, setState: setState)
        scenario.latency = latency
        scenario.when = when
        scenario.verify = verify
        scenario.verifyStatus = verifyStatus
        scenario.proxy = true
        return scenario
    }

    /// A sequence as written; its steps are checked, and its `expect` taken from its last step, once every
    /// scenario of the endpoint is read (``resolveSequences(_:at:)``).
    private mutating func parseSequence(_ fields: [String: JSONValue], name: String?, parameters: FixtureParameters,
                                        at path: String) -> Scenario? {
        for key in fields.keys.sorted() where !ContractSchema.sequenceKeys.contains(key) {
            report(path + "." + key, "a sequence plays other scenarios of the endpoint; \"\(key)\" belongs on those")
        }
        var steps: [String] = []
        if let list = array(fields["sequence"], at: path + ".sequence", required: true) {
            if list.isEmpty { report(path + ".sequence", "must name at least one scenario") }
            for (index, item) in list.enumerated() {
                if let step = optionalString(item, at: path + ".sequence[\(index)]") { steps.append(step) }
            }
        }
        var afterLast = ScenarioSequence.AfterLast.repeatLast
        if let text = optionalString(fields["afterLast"], at: path + ".afterLast") {
            if let value = ScenarioSequence.AfterLast(rawValue: text) {
                afterLast = value
            } else {
                report(path + ".afterLast", "\"\(text)\" is not one of "
                    + ScenarioSequence.AfterLast.allCases.map(\.rawValue).joined(separator: ", "))
            }
        }
        let description = optionalString(fields["description"], at: path + ".description")
        let when = parseWhen(fields["when"], parameters: parameters, at: path + ".when")
        guard let name, !steps.isEmpty else { return nil }
        var scenario = Scenario(name: name, status: nil, body: nil, fallback: nil, isTemplate: false, headers: [:],
                                contentType: nil, fault: nil, delayMs: 0, holdMs: 10_000, expect: .success,
                                description: description, sequence: ScenarioSequence(steps: steps, afterLast: afterLast),
                                setState: nil)
        scenario.when = when
        return scenario
    }

    /// Checks that every step of every sequence names an ordinary scenario of the endpoint, and gives each
    /// sequence the `expect` of its last step (where a client that retries ends up). Drops a sequence
    /// whose steps are wrong, after reporting it. `written` are the indexes of `scenarios` that the
    /// contract lists at `path` (a resource's operations come with built-in scenarios first).
    mutating func resolveSequences(_ scenarios: [Scenario], at path: String,
                                   written: PartialRangeFrom<Int> = 0...) -> [Scenario] {
        scenarios.enumerated().compactMap { index, scenario in
            guard let sequence = scenario.sequence else { return scenario }
            var valid = true
            for (stepIndex, step) in sequence.steps.enumerated() {
                let at = path + "[\(index - written.lowerBound)].sequence[\(stepIndex)]"
                guard let target = scenarios.first(where: { $0.name == step }) else {
                    report(at, "unknown scenario \"\(step)\"; the endpoint has: "
                        + scenarios.filter { $0.sequence == nil }.map(\.name).joined(separator: ", "))
                    valid = false
                    continue
                }
                if target.sequence != nil {
                    report(at, "\"\(step)\" is itself a sequence; a step must be an ordinary scenario")
                    valid = false
                }
            }
            guard valid, let last = scenarios.first(where: { $0.name == sequence.steps.last }) else { return nil }
            var resolved = Scenario(name: scenario.name, status: nil, body: nil, fallback: nil, isTemplate: false,
                                    headers: [:], contentType: nil, fault: nil, delayMs: 0, holdMs: scenario.holdMs,
                                    expect: last.expect, description: scenario.description, sequence: sequence,
                                    setState: nil)
            resolved.when = scenario.when
            return resolved
        }
    }

    private mutating func parseLatency(_ value: JSONValue?, at path: String) -> Latency? {
        guard let text = optionalString(value, at: path) else { return nil }
        guard let latency = Latency(text: text) else {
            report(path, "\"\(text)\" is not a latency: milliseconds (200), a range (100-500) or "
                + "lognormal:<median ms>:<sigma> (lognormal:80:0.5), at most \(Latency.maximum) ms")
            return nil
        }
        return latency
    }

    private mutating func parseBandwidth(_ value: JSONValue?, at path: String) -> Bandwidth? {
        guard let text = optionalString(value, at: path) else { return nil }
        guard let bandwidth = Bandwidth(text: text) else {
            report(path, "\"\(text)\" is not a bandwidth: one of " + Bandwidth.presets.map(\.name).joined(separator: ", ")
                + ", or bytes per second (\"20000\")")
            return nil
        }
        return bandwidth
    }

    /// `{"pieces": 5, "overMs": 2000, "chunked": false}`.
    private mutating func parseDribble(_ value: JSONValue?, at path: String) -> Dribble? {
        guard let value, let fields = object(value, at: path, keys: ContractSchema.keys(of: .dribble)) else { return nil }
        if fields["pieces"] == nil { report(path + ".pieces", "is required: how many parts the body is sent in") }
        if fields["overMs"] == nil { report(path + ".overMs", "is required: the milliseconds the parts are spread over") }
        let pieces = integer(fields["pieces"], at: path + ".pieces", in: 1...10_000)
        let overMs = integer(fields["overMs"], at: path + ".overMs", in: 0...60_000)
        let chunked = optionalBool(fields["chunked"], at: path + ".chunked") ?? false
        guard let pieces, let overMs else { return nil }
        return Dribble(pieces: pieces, overMs: overMs, chunked: chunked)
    }

    private mutating func parseSetState(_ value: JSONValue?, at path: String) -> String? {
        guard let state = optionalString(value, at: path) else { return nil }
        if states.isEmpty {
            report(path, "the contract declares no states; add \"states\": [...] at its top level")
        } else if !states.contains(state) {
            report(path, "unknown state \"\(state)\"; declared: " + states.joined(separator: ", "))
        }
        return state
    }

    private mutating func parseFallback(_ value: JSONValue?, body: String?, parameters: FixtureParameters,
                                        at path: String) -> String? {
        guard let fallback = optionalString(value, at: path) else { return nil }
        if body.map(FixturePath.placeholders(in:))?.isEmpty ?? true {
            report(path, "a fallback is for a fixture path with {placeholders}; this body has none")
        }
        checkFixturePath(fallback, parameters: parameters, at: path)
        return fallback
    }

    private mutating func checkHeaders(_ headers: [String: String], at path: String) {
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            if name.isEmpty || !name.utf8.allSatisfy(Self.isTokenByte) {
                report(path + "." + name, "a header name is a token: letters, digits and !#$%&'*+-.^_`|~ only")
            }
            if value.utf8.contains(where: { ($0 < 0x20 && $0 != 9) || $0 == 0x7F }) {
                report(path + "." + name, "a header value cannot hold control characters (line breaks, NUL)")
            }
            if name.lowercased() == "www-authenticate" && value.lowercased().hasPrefix("basic") {
                report(path + "." + name, "a Basic challenge makes URLSession on Linux hang; use \"Bearer\"")
            }
        }
    }

    /// A scenario whose `expect` contradicts its status is a typo that would make the contract lie.
    private mutating func checkConsistency(expect: Expectation, status: Int?, fault: Fault?, at path: String) {
        let allowed: [Expectation]
        switch (fault, status) {
        case (.some, _): allowed = [.networkFail]
        case (nil, let status?): allowed = ExpectedResult.possible(forStatus: status)
        case (nil, nil): return
        }
        if !allowed.contains(expect) {
            let cause = fault.map { "fault \($0.rawValue)" } ?? "status \(status ?? 0)"
            report(path, "\"\(expect.rawValue)\" cannot follow from \(cause); expected "
                + allowed.map(\.rawValue).joined(separator: " or "))
        }
    }

    private mutating func checkFixturePath(_ body: String, parameters: FixtureParameters, at path: String) {
        if !FixturePath.staysInside(body) {
            report(path, "\"\(body)\" must be a relative path inside the fixtures folder")
        }
        let folders = body.utf8.lastIndex(of: UInt8(ascii: "/")).map { body.utf8[..<$0] }
        if let folders, folders.contains(UInt8(ascii: "{")) || folders.contains(UInt8(ascii: "}")) {
            report(path, "\"\(body)\" may use {placeholders} in its file name only, not in its folders")
        }
        for name in FixturePath.placeholders(in: body) where !parameters.contains(name) {
            report(path, "{\(name)} is neither a parameter of the endpoint's path nor a declared query parameter")
        }
    }
}
