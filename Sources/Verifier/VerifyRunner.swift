import ContractModel
import HTTPCore
import MockServer
import Recorder

/// Sends each case's request to the backend (through ``UpstreamProxy``, so an `https://` target goes through the
/// TLS bridge as the proxy's do) at most `concurrency` at a time, within the total budget, and judges each answer.
struct VerifyRunner {
    let proxy: UpstreamProxy
    let options: VerifyOptions

    func run(_ cases: [VerifyCase]) -> [VerifyResult] {
        let results = Locked<[Int: VerifyResult]>([:])
        let done = Condition()
        let deadline = POSIX.monotonicNanoseconds() + UInt64(options.budget * 1_000_000_000)
        let sent = cases.enumerated().compactMap { index, item -> (Int, VerifyRequest, VerifyExpectation)? in
            guard case .send(let request, let expectation) = item.plan else { return nil }
            return (index, request, expectation)
        }
        let budget = options.budget
        let strict = options.strict
        @Sendable func finish(_ index: Int, _ result: VerifyResult) {
            done.withLock {
                results.withValue { $0[index] = result }
                done.signal()
            }
        }
        for (index, request, expectation) in sent {
            let item = cases[index]
            let started = POSIX.monotonicNanoseconds()
            var headers = HTTPHeaders()
            for field in request.headers { headers.append(name: field.name, value: field.value) }
            let message = HTTPRequest(method: .init(rawValue: request.method), target: request.target, headers: headers,
                                      body: request.body)
            proxy.relay(message, isWanted: {
                guard POSIX.monotonicNanoseconds() < deadline else {
                    finish(index, VerifyResult(verifyCase: item, verdict: .notVerified(
                        "the --budget of \(budget) s ran out before it was sent")))
                    return false
                }
                return true
            }, completion: { outcome in
                let milliseconds = Double(POSIX.monotonicNanoseconds() - started) / 1_000_000
                switch outcome {
                case .failure(let reason):
                    finish(index, VerifyResult(verifyCase: item, verdict: .drift(["no answer: \(reason)"]),
                                               milliseconds: milliseconds))
                case .response(let response, _):
                    var fields: [(name: String, value: String)] = []
                    HeadFields.forEach(in: response.head) { name, value in
                        fields.append((String(decoding: response.head[name], as: UTF8.self),
                                       String(decoding: response.head[value], as: UTF8.self)))
                    }
                    let (verdict, notes) = VerifyJudge.judge(expectation, status: response.status.code,
                                                             headers: fields, body: response.body,
                                                             strict: strict)
                    finish(index, VerifyResult(verifyCase: item, verdict: verdict, notes: notes,
                                               status: response.status.code, milliseconds: milliseconds))
                }
            })
        }
        done.withLock {
            while results.withValue({ $0.count }) < sent.count { done.wait() }
        }
        let finished = results.current
        return cases.enumerated().map { index, item in
            if let result = finished[index] { return result }
            if case .skip(let reason, _) = item.plan { return VerifyResult(verifyCase: item, verdict: .notVerified(reason)) }
            return VerifyResult(verifyCase: item, verdict: .notVerified("not sent"))
        }
    }
}
