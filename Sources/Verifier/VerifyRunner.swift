import ContractModel
import HTTPCore
import MockServer
import Recorder

/// Sends each case's request to the backend (through ``UpstreamProxy``, so an `https://` target goes through the
/// TLS bridge as the proxy's do), at most ``VerifyOptions/concurrency`` at a time, and judges each answer. The whole
/// run ends by the budget: a request not sent by then, or not answered by then, is reported not verified.
struct VerifyRunner {
    let proxy: UpstreamProxy
    let options: VerifyOptions

    /// How often the runner looks at the requests in flight while it waits for one to end.
    private static let pollMilliseconds = 5

    func run(_ cases: [VerifyCase]) -> [VerifyResult] {
        let results = Locked<[Int: VerifyResult]>([:])
        let inFlight = Locked(0)
        let deadline = POSIX.monotonicNanoseconds() + UInt64(options.budget * 1_000_000_000)
        let strict = options.strict
        let budget = "the --budget of \(options.budget) s ran out"
        @Sendable func finish(_ index: Int, _ result: VerifyResult) {
            results.withValue { $0[index] = $0[index] ?? result }
            inFlight.withValue { $0 -= 1 }
        }
        for (index, item) in cases.enumerated() {
            guard case .send(let request, let expectation) = item.plan else { continue }
            // At most `concurrency` in flight: the relay's queue never overflows, and the backend sees the pace asked for.
            while inFlight.current >= options.concurrency && POSIX.monotonicNanoseconds() < deadline {
                POSIX.sleep(milliseconds: Self.pollMilliseconds)
            }
            guard POSIX.monotonicNanoseconds() < deadline else {
                results.withValue { $0[index] = VerifyResult(verifyCase: item, verdict: .notVerified(budget + " before it was sent")) }
                continue
            }
            inFlight.withValue { $0 += 1 }
            let started = POSIX.monotonicNanoseconds()
            var headers = HTTPHeaders()
            for field in request.headers { headers.append(name: field.name, value: field.value) }
            let message = HTTPRequest(method: .init(rawValue: request.method), target: request.target, headers: headers,
                                      body: request.body)
            // Bodies read whole: the judge compares them.
            proxy.relay(message, isWanted: { true }, streamingBodies: false, completion: { outcome in
                let milliseconds = Double(POSIX.monotonicNanoseconds() - started) / 1_000_000
                switch outcome {
                case .failure(let reason) where reason == UpstreamFailure.overloaded.description:
                    finish(index, VerifyResult(verifyCase: item, verdict: .notVerified("the relay was busy: \(reason)")))
                case .failure(let reason):
                    finish(index, VerifyResult(verifyCase: item, verdict: .drift(["no answer: \(reason)"]),
                                               milliseconds: milliseconds))
                case .stream(_, let body):
                    // Not asked for above; a stream would need a socket to read.
                    body.cancel()
                    finish(index, VerifyResult(verifyCase: item, verdict: .notVerified("the body was streamed")))
                case .response(let response, _):
                    var fields: [(name: String, value: String)] = []
                    HeadFields.forEach(in: response.head) { name, value in
                        fields.append((String(decoding: response.head[name], as: UTF8.self),
                                       String(decoding: response.head[value], as: UTF8.self)))
                    }
                    let (verdict, notes) = VerifyJudge.judge(expectation, status: response.status.code,
                                                             headers: fields, body: response.body,
                                                             method: request.method, strict: strict)
                    finish(index, VerifyResult(verifyCase: item, verdict: verdict, notes: notes,
                                               status: response.status.code, milliseconds: milliseconds))
                }
            })
        }
        // Every answer, or the end of the budget: what is still out then is not verified (its answer is dropped).
        while inFlight.current > 0 && POSIX.monotonicNanoseconds() < deadline {
            POSIX.sleep(milliseconds: Self.pollMilliseconds)
        }
        let finished = results.withValue { finished in
            for (index, item) in cases.enumerated() where finished[index] == nil {
                if case .skip(let reason, _) = item.plan {
                    finished[index] = VerifyResult(verifyCase: item, verdict: .notVerified(reason))
                } else {
                    finished[index] = VerifyResult(verifyCase: item, verdict: .notVerified(budget + " before it was answered"))
                }
            }
            return finished
        }
        return cases.indices.compactMap { finished[$0] }
    }
}
