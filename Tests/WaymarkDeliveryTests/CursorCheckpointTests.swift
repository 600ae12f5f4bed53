import Testing
import WaymarkDelivery

/// When the single daemon saves an output's cursor: forced, or after 256 events or 200 ms.
@Suite struct CursorCheckpointTests {
    @Test func anUnmovedCursorIsNeverSaved() {
        let checkpoint = CursorCheckpoint(cursor: 7, at: TestInstant.seconds(0))
        #expect(!checkpoint.isDue(at: .seconds(100), force: true))
    }

    @Test(arguments: [
        // (moved by, seconds since the last save, forced, due)
        (Int64(1), 0.0, true, true),
        (1, 0.199, false, false),
        (1, 0.2, false, true),
        (255, 0.0, false, false),
        (256, 0.0, false, true),
    ])
    func aMovedCursorIsSavedWhenForcedOrAfter256EventsOr200Milliseconds(moved: Int64, seconds: Double, force: Bool, due: Bool) {
        var checkpoint = CursorCheckpoint(cursor: 1000, at: TestInstant.seconds(5))
        checkpoint.move(to: 1000 + moved)
        #expect(checkpoint.isDue(at: .seconds(5 + seconds), force: force) == due)
    }

    @Test func aSaveStartsTheCountAgain() {
        var checkpoint = CursorCheckpoint(cursor: 0, at: TestInstant.seconds(0))
        checkpoint.move(to: 300)
        checkpoint.didSave(at: .seconds(1))
        #expect(checkpoint.saved == 300)
        checkpoint.move(to: 301)
        #expect(!checkpoint.isDue(at: .seconds(1.1), force: false))
        #expect(checkpoint.isDue(at: .seconds(1.2), force: false))
    }

    /// History ids starting again from 1 move the cursor back to 0; the next forced save keeps it.
    @Test func aCursorMovedBackIsSavedWhenForced() {
        var checkpoint = CursorCheckpoint(cursor: 500, at: TestInstant.seconds(0))
        checkpoint.move(to: 0)
        #expect(checkpoint.isDue(at: .seconds(0), force: true))
        checkpoint.didSave(at: .seconds(0))
        #expect(checkpoint.saved == 0)
    }
}
