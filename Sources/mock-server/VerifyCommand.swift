#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ContractModel
import Recorder
import Verifier

/// `mock-server verify --target <url>`: the contracts checked against the real backend, the report printed (and
/// written as JUnit or JSON when asked), exit 0 when nothing drifted, 1 on drift or contracts that do not load.
enum VerifyCommand {
    static func verify(_ options: CommandLineOptions) {
        guard let target = options.recording.target else { return }
        var recordOptions = options.recording
        recordOptions.upstreamTimeout = options.verify.options.timeout
        let proxy = RecordCommand.makeProxy(target: target, options: recordOptions, recording: nil,
                                            threads: options.verify.options.concurrency)
        defer { proxy.stop() }
        let report: VerifyReport
        do {
            report = try Verification.run(contractsDirectory: options.configuration.contractsDirectory,
                                          fixturesDirectory: options.configuration.fixturesDirectory,
                                          proxy: proxy, options: options.verify.options)
        } catch {
            if let problem = error.problems.first, problem.file == Verification.onlyProblemFile {
                MockServerCommand.fail("--only: \(problem.reason)", code: 2)
            }
            for problem in error.problems { MockServerCommand.emit("error: \(problem)", toStandardError: true) }
            MockServerCommand.fail("\(error.problems.count) problem(s) in the contracts; nothing was sent", code: 1)
        }
        MockServerCommand.emit(report.text)
        for (format, file) in options.verify.reports {
            let bytes = format == .junit ? Array(report.junit.utf8) : report.json
            guard FileManager.default.createFile(atPath: file, contents: Data(bytes)) else {
                MockServerCommand.fail("cannot write the \(format.rawValue) report to \(file)", code: 1)
            }
        }
        if report.drifted { MockServerCommand.fail("drift found", code: 1) }
        // A run that checked nothing proves nothing: a CI job without its token must not pass.
        if report.counts.verified == 0 {
            MockServerCommand.fail("nothing was verified (see why above)", code: 1)
        }
    }
}
