import Foundation
import GRDB
import Testing
import WaymarkTestSupport

@testable import WaymarkStore

/// Checkpoints beside the writer (`WALCheckpointer`): while a `StoreWriter` runs, pages reach
/// the database file although the writer's own connection would checkpoint only at 16,384 WAL
/// pages; at close, the writer's connection checkpoints at SQLite's default again.
@Suite(.timeLimit(.minutes(2))) struct WALCheckpointerTests {
    @Test func pagesReachTheDatabaseFileWhileTheWriterRunsAndCheckpointsComeBackAtClose() async throws {
        let folder = try TemporaryDirectory()
        let store = try WriterSample.fileStore(folder)
        let path = try #require(store.path)
        let autocheckpoint = { try store.database.writeWithoutTransaction { try Int.fetchOne($0, sql: "PRAGMA wal_autocheckpoint") } }
        let writer = StoreWriter(store: store, logger: quietLogger)
        _ = try await writer.write([WriterSample.fix(-1)], durability: .recorded)  // set in the first group
        #expect(try autocheckpoint() == WALCheckpointer.fallbackPages)
        let before = Self.size(path)
        for chunk in 0..<30 {
            _ = try await writer.write((0..<1_000).map { WriterSample.fix(chunk * 1_000 + $0) }, durability: .recorded)
        }
        // About 1,500 pages: well under the writer's own threshold, so only the checkpointer
        // can have copied them into the file.
        #expect(try await BackgroundProcess.waitUntil(timeout: 10) { Self.size(path) > before + 2_000_000 }, "database file \(Self.size(path)) bytes, \(before) before")
        await writer.shutdown()
        #expect(try autocheckpoint() == WALCheckpointer.defaultPages)
        #expect(try store.historyCounts().fixes == 30_001)
    }

    static func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }
}
