import ContractModel
import HTTPCore
import MockServer
import Recorder

/// The drift check a serving `mock-server --proxy <url>` runs on `POST /__mock/verify`: the contracts it serves
/// (read again from disk) against its `--proxy` backend, on a thread of its own. Options come as JSON:
/// `{"only": ["productList"], "strict": true, "allowWrites": false, "headers": {"Authorization": "Bearer …"}}`;
/// header values are used and forgotten, never kept in the report.
package final class ServedDriftCheck: DriftCheck {
    private let proxy: UpstreamProxy
    private let contractsDirectory: String
    private let fixturesDirectory: String
    private let last = Locked<[UInt8]?>(nil)
    /// One run at a time.
    private let isRunning = Locked(false)

    /// - Parameter proxy: The server's `--proxy`: its target and TLS bridge are used, through a relay of the check's
    ///   own, so the check's requests are never recorded and never queue behind the app's.
    package init(proxy: UpstreamProxy, contractsDirectory: String, fixturesDirectory: String) {
        self.proxy = UpstreamProxy(target: proxy.upstream, timeout: proxy.timeout, recording: nil,
                                   threads: VerifyOptions().concurrency, bridge: proxy.bridge)
        self.contractsDirectory = contractsDirectory
        self.fixturesDirectory = fixturesDirectory
    }

    package var timeoutNanoseconds: UInt64 { UInt64(VerifyOptions().budget + proxy.timeout * 3 + 5) * 1_000_000_000 }

    package var lastReport: [UInt8]? { last.current }

    package func run(options body: [UInt8], completion: @escaping @Sendable (Result<[UInt8], DriftCheckFailure>) -> Void) {
        let options: VerifyOptions
        switch Self.options(body) {
        case .success(let parsed): options = parsed
        case .failure(let failure): return completion(.failure(failure))
        }
        guard isRunning.withValue({ running in
            defer { running = true }
            return !running
        }) else {
            return completion(.failure(DriftCheckFailure("a drift check is running; GET /__mock/verify shows the last "
                + "one's report", kind: .busy)))
        }
        let work: @Sendable () -> Void = { [self] in
            defer { isRunning.withValue { $0 = false } }
            do throws(ContractLoadError) {
                let report = try Verification.run(contractsDirectory: contractsDirectory,
                                                  fixturesDirectory: fixturesDirectory, proxy: proxy, options: options)
                let json = report.json
                last.withValue { $0 = json }
                completion(.success(json))
            } catch {
                completion(.failure(DriftCheckFailure("the contracts on disk do not load: "
                    + error.problems.map(\.description).joined(separator: "; "), kind: .contracts)))
            }
        }
        do {
            // Nobody waits for it: the admin request's pending reply is completed from it.
            try POSIX.startThread(work).detach()
        } catch {
            isRunning.withValue { $0 = false }
            completion(.failure(DriftCheckFailure("could not start the drift check: \(error)", kind: .busy)))
        }
    }

    /// The options of a `POST /__mock/verify` body.
    static func options(_ body: [UInt8]) -> Result<VerifyOptions, DriftCheckFailure> {
        var options = VerifyOptions()
        guard !body.isEmpty else { return .success(options) }
        let usage = #"the body is {"only": [ids], "strict": bool, "allowWrites": bool, "headers": {name: value}}, all optional"#
        guard case .object(let fields)? = try? JSONValue.parse(body) else {
            return .failure(DriftCheckFailure(usage, kind: .options))
        }
        for (key, value) in fields {
            switch (key, value) {
            case ("only", .array(let ids)):
                for id in ids {
                    guard case .string(let text) = id else { return .failure(DriftCheckFailure(usage, kind: .options)) }
                    options.only.insert(text)
                }
            case ("strict", .bool(let flag)): options.strict = flag
            case ("allowWrites", .bool(let flag)): options.allowWrites = flag
            case ("headers", .object(let headers)):
                for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
                    guard case .string(let text) = value else { return .failure(DriftCheckFailure(usage, kind: .options)) }
                    options.headers.append((name, text))
                }
            default:
                return .failure(DriftCheckFailure(usage, kind: .options))
            }
        }
        return .success(options)
    }
}
