/// One thing wrong with a contract or its fixtures: where, and why.
public struct ContractProblem: Sendable, Hashable, CustomStringConvertible {
    /// The contract file.
    public let file: String
    /// A JSON path into the file, such as `$.endpoints[0].scenarios[2].status`.
    public let path: String
    public let reason: String
    /// What the path points into, by name: `endpoint productList, scenario "slow"`; `nil` outside an
    /// endpoint or when its id is unknown.
    public var subject: String?

    public init(file: String, path: String, reason: String, subject: String? = nil) {
        self.file = file
        self.path = path
        self.reason = reason
        self.subject = subject
    }

    /// `file: endpoint id, scenario "name": $.json.path: reason`, leaving out what does not apply.
    public var description: String {
        [file, subject, path == "-" ? nil : path, reason].compactMap { $0 }.joined(separator: ": ")
    }
}

/// Contracts that cannot be served, with every problem found.
public struct ContractLoadError: Error, CustomStringConvertible {
    public let problems: [ContractProblem]

    public init(problems: [ContractProblem]) { self.problems = problems }

    public var description: String {
        "\(problems.count) contract problem\(problems.count == 1 ? "" : "s"):\n"
            + problems.map { "  " + $0.description }.joined(separator: "\n")
    }
}
