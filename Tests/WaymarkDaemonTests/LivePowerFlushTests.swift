import Foundation
import Logging
import Testing
import WaymarkCore
import WaymarkPipeline
import WaymarkStore
import WaymarkTestSupport

@testable import WaymarkDaemon

/// The energy flush writes on the store's own queue (docs/durability.md): what it took from the
/// ledger and could not store waits for the next flush, which stores it with what came since.
@Suite struct LivePowerFlushTests {
    @Test func aRefusedFlushIsStoredWithTheNext() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("w.sqlite")
        let store = try await WaymarkStore.open(path: path, logger: LivePowerTests.quiet)
        let clock = ManualWallClock(LivePowerTests.start)
        let pipeline = LivePipeline(
            store: store, writer: StoreWriter(store: store, logger: LivePowerTests.quiet), regions: RegionMonitors([LivePowerTests.hut]),
            sourceKind: .gpsd, sourceDescription: "gpsd:test", feed: LiveFeed(), recordFixes: true, clock: clock, logger: LivePowerTests.quiet)
        clock.advance(by: 10)  // off
        await pipeline.handle(.connected("gpsd"))
        clock.advance(by: 30)  // acquiring

        // Another connection makes the store refuse energy rows for a while.
        try await Self.sqlite(path, "CREATE TRIGGER refuse BEFORE INSERT ON energy BEGIN SELECT RAISE(ABORT, 'refused by the test'); END;")
        await pipeline.flushEnergy()
        #expect(try store.energy().isEmpty)
        #expect(pipeline.snapshot().counters["storeErrors"] == 1)

        try await Self.sqlite(path, "DROP TRIGGER refuse;")
        clock.advance(by: 20)  // acquiring
        await pipeline.flushEnergy()
        #expect(LivePowerTests.seconds(try store.energy()) == ["off": 10, "acquiring": 50])
        // Nothing is stored twice.
        await pipeline.flushEnergy()
        #expect(LivePowerTests.seconds(try store.energy()) == ["off": 10, "acquiring": 50])
    }

    static func sqlite(_ path: String, _ sql: String) async throws {
        let result = try await runProcess(URL(fileURLWithPath: "/usr/bin/sqlite3"), [path, sql])
        try #require(result.status == 0, "\(result.stderr)")
    }
}
