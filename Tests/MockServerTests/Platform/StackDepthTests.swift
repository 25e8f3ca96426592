import ContractModel
@testable import MockServer
import Testing

/// Darwin gives secondary threads (Swift concurrency's, a test runner's) 512 KB of stack. The JSON
/// reader recurses per nesting level, so its depth limit must fit well inside that in a debug build.
struct StackDepthTests {
    /// Half of Darwin's 512 KB, leaving the other half to whatever frames sit below the reader.
    static let stackSize = 256 * 1024

    @Test(arguments: ["[", "{\"a\":"])
    func jsonReader_MaximumNesting_FitsInQuarterMegabyteStack(opener: String) throws {
        let closer = opener == "[" ? "]" : "}"
        let depth = 512
        let deepest = String(repeating: opener, count: depth) + "1" + String(repeating: closer, count: depth)
        let outcome = Locked<Result<JSONValue, JSONReadError>?>(nil)
        let thread = try POSIX.startThread(stackSize: Self.stackSize) {
            let result = Result { () throws(JSONReadError) in try JSONValue.parse(Array(deepest.utf8)) }
            outcome.withValue { $0 = result }
        }
        thread.join()
        // Reaching here at all is the test: an overflow would have crashed the process.
        let result = try #require(outcome.current)
        if case .failure(let error) = result {
            #expect(error.reason.contains("nested more than"))
        }
    }
}
