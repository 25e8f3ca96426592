import ContractModel
import Foundation
import Recorder
import Testing

/// Recording into folders that already hold contracts: refused without `merge`, added to with it.
@Suite(.timeLimit(.minutes(2))) struct RecordingMergeTests {
    /// A contract a person wrote: an endpoint with their own scenario, parameter name and description.
    static let handWritten = """
    {
      "domain": "items",
      "description": "Written by hand.",
      "endpoints": [
        { "id": "itemDetail", "method": "GET", "path": "/v1/items/{itemId}", "description": "keep me",
          "request": { "pathParams": { "itemId": "integer" } },
          "scenarios": [
            { "name": "success", "status": 200, "body": "handmade/item.json", "expect": "success" },
            { "name": "slow", "status": 200, "body": "handmade/item.json", "delayMs": 800, "expect": "success" }
          ] }
      ]
    }
    """

    static func handWrittenFolders() throws -> RecordingFolders {
        let folders = try RecordingFolders()
        try FileManager.default.createDirectory(atPath: folders.fixtures + "/handmade", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folders.contracts, withIntermediateDirectories: true)
        try Data(Self.handWritten.utf8).write(to: URL(fileURLWithPath: folders.contracts + "/items.json"))
        try Data(#"{"id":0}"#.utf8).write(to: URL(fileURLWithPath: folders.fixtures + "/handmade/item.json"))
        return folders
    }

    @Test func existingContracts_WithoutMerge_AreRefused_AndNothingIsWritten() throws {
        // GIVEN
        let folders = try Self.handWrittenFolders()
        let before = folders.files()
        // WHEN
        let error = #expect(throws: RecordingError.self) { try folders.writer().write(RecordingReplayTests.traffic) }
        // THEN
        #expect(error?.description.contains(folders.contracts) == true)
        #expect(error?.description.contains("--merge") == true)
        #expect(folders.files() == before)
    }

    @Test func merge_AddsEndpointsAndScenarios_KeepingWhatAPersonWrote() throws {
        let folders = try Self.handWrittenFolders()
        let summary = try folders.writer(merge: true).write(RecordingReplayTests.traffic)
        let contracts = try #require(folders.validate())
        let detail = try #require(contracts.endpoints.first { $0.id == "itemDetail" })
        #expect(detail.description == "keep me")
        #expect(detail.scenarios.map(\.name) == ["success", "slow", "success2", "requestErr"])
        #expect(detail.scenarios.first { $0.name == "success2" }?.body == "v1/items/{itemId}.json")
        #expect(folders.text("Contracts/items.json").contains("Written by hand."))
        #expect(folders.text("Fixtures/handmade/item.json") == #"{"id":0}"#)
        #expect(contracts.endpoints.contains { $0.method == "POST" && $0.path.description == "/v1/items" })
        #expect(summary.contractFiles.map { $0.split(separator: "/").last ?? "" } == ["health.json", "items.json"])
    }

    @Test func merge_OfARecordingAlreadyMerged_ChangesNothing() throws {
        let folders = try Self.handWrittenFolders()
        _ = try folders.writer(merge: true).write(RecordingReplayTests.traffic)
        let once = folders.files()
        let summary = try folders.writer(merge: true).write(RecordingReplayTests.traffic)
        #expect(folders.files() == once)
        #expect(summary.endpoints == 0 && summary.scenarios == 0)
    }
}
