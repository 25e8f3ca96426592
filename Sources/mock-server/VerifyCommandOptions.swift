import Verifier

/// The options of `mock-server verify` besides the target and folders: what it sends (``VerifyOptions``) and the
/// report files it writes.
struct VerifyCommandOptions {
    enum ReportFormat: String, CaseIterable {
        case junit, json
    }

    var options = VerifyOptions()
    /// `--report <format> <file>`, in the order given.
    var reports: [(format: ReportFormat, file: String)] = []

    /// `--header 'Name: value'`.
    mutating func addHeader(_ text: String) throws(CommandLineOptions.UsageError) {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else {
            throw CommandLineOptions.UsageError("--header: expected 'Name: value'")
        }
        let name = String(text[..<colon]).filter { $0 != " " }
        let value = String(text[text.index(after: colon)...].drop { $0 == " " || $0 == "\t" })
        guard !name.isEmpty, name.utf8.allSatisfy({ $0 > 32 && $0 < 127 }),
              !value.unicodeScalars.contains(where: { $0.value < 32 && $0 != "\t" }) else {
            // Not quoted back: the value may be a credential.
            throw CommandLineOptions.UsageError("--header \(name): a field name is a token and a value has no line break")
        }
        options.headers.append((name, value))
    }

    /// `--report <format> <file>` (the parser joins the two words with a line feed).
    mutating func addReport(_ text: String) throws(CommandLineOptions.UsageError) {
        let words = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard words.count == 2, let format = ReportFormat(rawValue: words[0]), !words[1].isEmpty else {
            throw CommandLineOptions.UsageError("--report: expected junit <file> or json <file>")
        }
        reports.append((format, words[1]))
    }
}
