import ContractModel
@testable import HTTPCore
import TestSupport
import Testing

/// Darwin gives secondary threads (Swift concurrency's, a test runner's) 512 KB of stack. The JSON
/// reader keeps open containers on the heap, so the deepest document it accepts (511 levels) and the
/// first it refuses (512) both fit well inside that in a debug build.
struct StackDepthTests {
    /// Half of Darwin's 512 KB, leaving the other half to whatever frames sit below the reader.
    static let stackSize = 256 * 1024

    @Test(arguments: ["[", "{\"a\":"], [511, 512])
    func jsonReader_MaximumNesting_FitsInQuarterMegabyteStack(opener: String, depth: Int) throws {
        let closer = opener == "[" ? "]" : "}"
        let deepest = String(repeating: opener, count: depth) + "1" + String(repeating: closer, count: depth)
        let outcome = Locked<Result<JSONValue, JSONReadError>?>(nil)
        let thread = try POSIX.startThread(stackSize: Self.stackSize) {
            let result = Result { () throws(JSONReadError) in try JSONValue.parse(Array(deepest.utf8)) }
            outcome.withValue { $0 = result }
        }
        thread.join()
        // Reaching here at all is the test: an overflow would have crashed the process.
        let result = try #require(outcome.current)
        switch result {
        case .success: #expect(depth == 511)
        case .failure(let error): #expect(depth == 512 && error.reason.contains("nested more than 512 levels"))
        }
    }
}

/// The YAML reader keeps its open collections on the heap too (scanner, parser and composer alike), so the
/// deepest document it accepts (512 levels, in flow or block style) and the first it refuses fit in the
/// same stack.
struct YAMLStackDepthTests {
    @Test(arguments: [("[", "]"), ("{a: ", "}"), ("- ", ""), ("a:\n", "")], [512, 513])
    func yamlReader_MaximumNesting_FitsInQuarterMegabyteStack(
        level: (opener: String, closer: String),
        depth: Int
    ) throws {
        let deepest: String
        if level.opener == "a:\n" {
            deepest = (0..<depth).map { String(repeating: " ", count: $0) + "a:" }.joined(separator: "\n") + " 1\n"
        } else {
            deepest = String(repeating: level.opener, count: depth) + "1"
                + String(repeating: level.closer, count: depth)
        }
        let outcome = Locked<Result<JSONValue, YAMLReadError>?>(nil)
        let thread = try POSIX.startThread(stackSize: StackDepthTests.stackSize) {
            let result = Result { () throws(YAMLReadError) in try JSONValue.parseYAML(Array(deepest.utf8)) }
            outcome.withValue { $0 = result }
        }
        thread.join()
        let result = try #require(outcome.current)
        switch result {
        case .success: #expect(depth == 512)
        case .failure(let error):
            #expect(depth == 513 && error.reason.contains("nested more than 512 levels"), "\(error)")
        }
    }
}

/// A large body is read in time linear in its size (it is read on an event loop's thread).
@Suite(.blockingIO) struct JSONReaderScaleTests {
    @Test(.timeLimit(.minutes(1)))
    func largeArrayAndObject_AreReadInLinearTime() throws {
        let count = 200_000
        let array = "[" + (0..<count).map(String.init).joined(separator: ",") + "]"
        guard case .array(let items) = try JSONValue.parse(Array(array.utf8)) else { throw JSONScaleFailure() }
        #expect(items.count == count)
        let object = "{" + (0..<count).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}"
        guard case .object(let fields) = try JSONValue.parse(Array(object.utf8)) else { throw JSONScaleFailure() }
        #expect(fields.count == count)
    }

    private struct JSONScaleFailure: Error {}
}
