@testable import HTTPCore
@testable import MockServer

extension JournalEntry {
    /// An entry as the handler records it, told apart by `target`.
    static func make(
        method: RequestMethod = "GET",
        target: String = "/",
        status: Int? = 200
    ) -> JournalEntry {
        JournalEntry(method: method, target: target, fields: [("Host", "a")], bodySize: 0, endpoint: nil,
                     scenario: nil, status: status, fault: nil, violations: [])
    }
}
