import ContractModel
import TestSupport
import Testing

/// Large and hostile documents are read in time linear in their size.
@Suite(.blockingIO) struct YAMLScaleTests {
    @Test(.timeLimit(.minutes(1)))
    func largeBlockAndFlowCollections_AreReadInLinearTime() throws {
        let count = 30_000
        let block = (0..<count).map { "k\($0): [\($0), {v: \"\($0)\"}]" }.joined(separator: "\n")
        guard case .object(let fields) = try yaml(block) else { throw ScaleFailure() }
        #expect(fields.count == count)
        let flow = "[" + (0..<count).map { "{id: \($0)}" }.joined(separator: ", ") + "]"
        guard case .array(let items) = try yaml(flow) else { throw ScaleFailure() }
        #expect(items.count == count)
    }

    @Test(.timeLimit(.minutes(1)))
    func longRunOfTabs_IsSkippedInLinearTime() throws {
        #expect(try yaml("a: b" + String(repeating: "\t", count: 200_000) + "\n") == json(#"{"a":"b"}"#))
    }

    @Test(.timeLimit(.minutes(1)))
    func deeplyNestedFlowMappings_AreRefusedWithoutScanningAheadForEachKey() {
        // GIVEN half a million open flow mappings, each of which could start a key of the one around it
        let text = String(repeating: "{", count: 500_000)
        // THEN the scanner stops at the nesting limit instead of looking to the end of the input for each ':'
        expectYAMLError(text, line: 1, column: 513, "nested more than 512 levels")
    }

    private struct ScaleFailure: Error {}
}
