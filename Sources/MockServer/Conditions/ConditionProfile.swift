#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ContractModel
import HTTPCore

/// A network laid over every endpoint's scenario: a latency drawn per request, a bandwidth for bodies
/// whose scenario sets none, and a share of requests that fail with a fault instead of their answer.
/// Chosen with `--conditions`, per request with `X-Mock-Conditions`, or at run time from the admin API.
///
/// A class of constants, so a value all the same: every request reads the active profile (most often none) under
/// a lock, and copying the struct it was, a string and two optional payloads, and destroying the copy cost
/// more per request than the one retain a reference costs.
public final class ConditionProfile: Sendable, Equatable {
    /// The name `X-Mock-Conditions`, `--conditions` and the admin API select it by (`3g`, `flaky`).
    public let name: String
    package let latency: Latency?
    package let bandwidth: Bandwidth?
    /// Percent of requests, 0...100, answered with ``fault``.
    package let failurePercent: Double
    package let fault: Fault

    /// The presets' links as profiles (bandwidth and its latency), and `train`: bad train Wi-Fi, slow and
    /// uneven (log-normal latency around 400 ms on 3G's bandwidth) and dropping one request in twenty.
    package static let builtIn: [ConditionProfile] = Bandwidth.presets.map { preset in
        ConditionProfile(name: preset.name, latency: nil,
                         bandwidth: Bandwidth(bytesPerSecond: preset.bytesPerSecond, latencyMs: preset.latencyMs),
                         failurePercent: 0, fault: .connectionReset)
    } + [
        ConditionProfile(name: "train", latency: .lognormal(median: 400, sigma: 0.9), bandwidth: Bandwidth(text: "3g"),
                         failurePercent: 5, fault: .connectionReset),
    ]

    package init(name: String, latency: Latency?, bandwidth: Bandwidth?, failurePercent: Double, fault: Fault) {
        self.name = name
        self.latency = latency
        self.bandwidth = bandwidth
        self.failurePercent = failurePercent
        self.fault = fault
    }

    public static func == (left: ConditionProfile, right: ConditionProfile) -> Bool {
        left.name == right.name && left.latency == right.latency && left.bandwidth == right.bandwidth
            && left.failurePercent == right.failurePercent && left.fault == right.fault
    }

    /// A built-in profile's name, or a JSON file holding one:
    /// `{"name": "train", "latency": "lognormal:400:0.9", "bandwidth": "3g", "failurePercent": 5, "fault": "connection_reset"}`.
    /// - Throws: A message naming the file and the field.
    public static func named(_ nameOrFile: String) throws(ConditionProfileError) -> ConditionProfile {
        if let profile = builtIn.first(where: { $0.name == nameOrFile }) { return profile }
        guard nameOrFile.hasSuffix(".json") || nameOrFile.contains("/") else {
            throw ConditionProfileError(message: "\"\(nameOrFile)\" is neither a profile ("
                + builtIn.map(\.name).joined(separator: ", ") + ") nor a .json file")
        }
        guard let bytes = POSIX.readFile(nameOrFile) else {
            throw ConditionProfileError(message: "\(nameOrFile): cannot read the file")
        }
        let document: JSONValue
        do { document = try JSONValue.parse(bytes) } catch {
            throw ConditionProfileError(message: "\(nameOrFile): not valid JSON (\(error))")
        }
        return try parse(document, file: nameOrFile)
    }

    static func parse(_ document: JSONValue, file: String) throws(ConditionProfileError) -> ConditionProfile {
        func fail(_ field: String, _ reason: String) -> ConditionProfileError {
            ConditionProfileError(message: "\(file): \(field): \(reason)")
        }
        guard case .object(let fields) = document else { throw fail("$", "must be an object") }
        let known: Set = ["name", "latency", "bandwidth", "failurePercent", "fault", "description"]
        if let unknown = fields.keys.sorted().first(where: { !known.contains($0) }) {
            throw fail(unknown, "unknown key; known: " + known.sorted().joined(separator: ", "))
        }
        guard case .string(let name)? = fields["name"], !name.isEmpty else { throw fail("name", "is required, a string") }
        var latency: Latency?
        if let value = fields["latency"] {
            guard case .string(let text) = value, let parsed = Latency(text: text) else {
                throw fail("latency", "is 200, 100-500 or lognormal:<median ms>:<sigma>")
            }
            latency = parsed
        }
        var bandwidth: Bandwidth?
        if let value = fields["bandwidth"] {
            guard case .string(let text) = value, let parsed = Bandwidth(text: text) else {
                throw fail("bandwidth", "is one of " + Bandwidth.presets.map(\.name).joined(separator: ", ")
                    + ", or bytes per second")
            }
            bandwidth = parsed
        }
        var percent = 0.0
        if let value = fields["failurePercent"] {
            guard case .number(let number) = value, (0...100).contains(number) else { throw fail("failurePercent", "is 0...100") }
            percent = number
        }
        var fault = Fault.connectionReset
        if let value = fields["fault"] {
            guard case .string(let text) = value, let parsed = Fault(rawValue: text), parsed != .noResponse else {
                throw fail("fault", "is one of connection_reset, empty_response, malformed_response, truncated_body")
            }
            fault = parsed
        }
        return ConditionProfile(name: name, latency: latency, bandwidth: bandwidth, failurePercent: percent, fault: fault)
    }
}

/// A profile that could not be read, with the file and the field.
public struct ConditionProfileError: Error, CustomStringConvertible {
    /// The file, the field and what is wrong with it.
    public let message: String
    public var description: String { message }
}
