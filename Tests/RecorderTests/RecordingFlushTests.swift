import Foundation
import Recorder
import Testing

/// A recorder flushes more than once (`POST /__mock/record/flush`, then the signal that stops it), each
/// time with everything recorded so far: the files after the last flush are those one flush would give.
@Suite(.timeLimit(.minutes(2))) struct RecordingFlushTests {
    private static let first = Array(RecordingReplayTests.traffic.prefix(3))
    private static let all = RecordingReplayTests.traffic + [.make("/v1/orders/7", body: #"{"id":7}"#)]

    @Test func flushingTwice_GivesTheFilesOfOneFlush() throws {
        let once = try RecordingFolders()
        _ = try once.writer().write(Self.all)
        let twice = try RecordingFolders()
        let writer = twice.writer()
        _ = try writer.write(Self.first)
        let summary = try writer.write(Self.all)
        #expect(twice.files() == once.files())
        #expect(summary.contractFiles.count == once.files().keys.filter { $0.hasPrefix("Contracts/") }.count)
        twice.validate()
    }

    @Test func aFileTheLaterFlushNoLongerWrites_IsRemoved() throws {
        let folders = try RecordingFolders()
        let writer = folders.writer()
        _ = try writer.write([.make("/v1/orders/7", body: #"{"id":7}"#)])
        // The same path answering differently now: the first flush's fixture name gives way.
        _ = try writer.write([.make("/v1/orders/7", body: #"{"id":7}"#), .make("/v1/orders/7", status: 404, body: "{}")])
        let fresh = try RecordingFolders()
        _ = try fresh.writer().write([.make("/v1/orders/7", body: #"{"id":7}"#), .make("/v1/orders/7", status: 404, body: "{}")])
        #expect(folders.files() == fresh.files())
    }

    @Test func mergingTwice_GivesTheFilesOfOneMerge_AndKeepsWhatAPersonWrote() throws {
        let once = try RecordingMergeTests.handWrittenFolders()
        _ = try once.writer(merge: true).write(Self.all)
        let twice = try RecordingMergeTests.handWrittenFolders()
        let writer = twice.writer(merge: true)
        _ = try writer.write(Self.first)
        _ = try writer.write(Self.all)
        #expect(twice.files() == once.files())
        #expect(twice.text("Contracts/items.json").contains("Written by hand."))
    }

    @Test func aNewWriter_StillRefusesFoldersAnEarlierSessionFilled() throws {
        let folders = try RecordingFolders()
        _ = try folders.writer().write(Self.first)
        #expect(throws: RecordingError.self) { try folders.writer().write(Self.all) }
    }
}
