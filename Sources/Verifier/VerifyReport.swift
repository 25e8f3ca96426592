#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The outcome of a `mock-server verify` run, for people (``text``), CI (``junit``) and scripts (``json``). Names
/// requests by method and target only: header values (credentials) are never in a report.
package struct VerifyReport: Sendable {
    let target: String
    let results: [VerifyResult]

    /// Whether any scenario drifted: the run's exit status is 1 then.
    package var drifted: Bool { results.contains { if case .drift = $0.verdict { true } else { false } } }

    /// How many cases were verified, drifted, and were not verified.
    package var counts: (verified: Int, drifted: Int, notVerified: Int) {
        var counts = (verified: 0, drifted: 0, notVerified: 0)
        for result in results {
            switch result.verdict {
            case .verified: counts.verified += 1
            case .drift: counts.drifted += 1
            case .notVerified: counts.notVerified += 1
            }
        }
        return counts
    }

    /// Grouped by contract file: each endpoint and scenario as verified, drift (each difference), or not verified
    /// (why); then the totals.
    package var text: String {
        var lines = ["verify against \(target)"]
        var file: String?
        var routine: [String] = []
        var routineEndpoint = ""
        var routineSeen = false
        func sumUpRoutine() {
            guard !routine.isEmpty else { return }
            lines.append("  \(routineEndpoint): not checked: \(routine.joined(separator: ", "))")
            routineSeen = true
            routine = []
        }
        for result in results {
            let item = result.verifyCase
            if item.endpoint != routineEndpoint { sumUpRoutine() }
            routineEndpoint = item.endpoint
            if item.file != file {
                file = item.file
                lines.append("")
                lines.append(item.file)
            }
            if case .skip(_, routine: true) = item.plan {
                routine.append(item.scenario)
                continue
            }
            let name = "  \(item.endpoint).\(item.scenario) \(item.method) \(item.shownTarget)"
            switch result.verdict {
            case .verified:
                lines.append(name + ": verified" + (result.status.map { " (\($0))" } ?? ""))
            case .drift(let differences):
                lines.append(name + ": DRIFT")
                lines += differences.map { "      " + $0 }
            case .notVerified(let reason):
                lines.append(name + ": not verified: " + reason)
            }
            lines += result.notes.map { "      note: " + $0 }
        }
        sumUpRoutine()
        let counts = counts
        lines.append("")
        if routineSeen {
            lines.append("Not checked: the mock's own faults, malformed answers and resource stores, and scenarios no known "
                + "request produces (give a scenario \"verify\" to check it).")
        }
        lines.append("\(counts.verified) verified, \(counts.drifted) drifted, \(counts.notVerified) not verified")
        return lines.joined(separator: "\n")
    }

    /// JUnit XML: a test suite per contract file, a test case per endpoint and scenario; drift is a failure, not
    /// verified is skipped with its reason.
    package var junit: String {
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        let counts = counts
        xml += #"<testsuites name="mock-server verify" tests="\#(results.count)" failures="\#(counts.drifted)" "#
            + #"skipped="\#(counts.notVerified)">"# + "\n"
        var files: [String] = []
        for result in results where !files.contains(result.verifyCase.file) { files.append(result.verifyCase.file) }
        for file in files {
            let members = results.filter { $0.verifyCase.file == file }
            let failures = members.filter { if case .drift = $0.verdict { true } else { false } }.count
            let skipped = members.filter { if case .notVerified = $0.verdict { true } else { false } }.count
            xml += #"  <testsuite name="\#(Self.escaped(file))" tests="\#(members.count)" failures="\#(failures)" "#
                + #"skipped="\#(skipped)">"# + "\n"
            for result in members {
                let item = result.verifyCase
                let time = Self.seconds(milliseconds: result.milliseconds ?? 0)
                xml += #"    <testcase classname="\#(Self.escaped(item.endpoint))" "#
                    + #"name="\#(Self.escaped(item.scenario + " " + item.method + " " + item.shownTarget))" time="\#(time)""#
                switch result.verdict {
                case .verified:
                    xml += "/>\n"
                case .drift(let differences):
                    xml += ">\n      <failure message=\"\(Self.escaped(differences.first ?? "drift"))\">"
                        + Self.escaped(differences.joined(separator: "\n")) + "</failure>\n    </testcase>\n"
                case .notVerified(let reason):
                    xml += ">\n      <skipped message=\"\(Self.escaped(reason))\"/>\n    </testcase>\n"
                }
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    /// One JSON object: the target, the totals, and each case.
    package var json: [UInt8] {
        struct Case: Encodable {
            let file, endpoint, scenario, method, target, result: String
            let status: Int?
            let drift: [String]?
            let reason: String?
            let notes: [String]?
        }
        struct Body: Encodable {
            let target: String
            let verified, drifted, notVerified: Int
            let cases: [Case]
        }
        let counts = counts
        let cases = results.map { result in
            let item = result.verifyCase
            var drift: [String]?
            var reason: String?
            let word: String
            switch result.verdict {
            case .verified: word = "verified"
            case .drift(let differences): word = "drift"; drift = differences
            case .notVerified(let why): word = "notVerified"; reason = why
            }
            return Case(file: item.file, endpoint: item.endpoint, scenario: item.scenario, method: item.method,
                        target: item.shownTarget, result: word, status: result.status, drift: drift, reason: reason,
                        notes: result.notes.isEmpty ? nil : result.notes)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let body = Body(target: target, verified: counts.verified, drifted: counts.drifted,
                        notVerified: counts.notVerified, cases: cases)
        return (try? encoder.encode(body)).map(Array.init) ?? []
    }

    /// `0.042` for 42 ms: seconds with three decimals, as JUnit's `time` has them.
    static func seconds(milliseconds: Double) -> String {
        let whole = max(0, Int(milliseconds.rounded()))
        let fraction = String(whole % 1_000)
        return "\(whole / 1_000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// Text for an XML attribute or element.
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n": out += "&#10;"
            default:
                // XML 1.0 has no other control characters.
                if scalar.value < 0x20 && scalar != "\t" { out += "?" } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }
}
