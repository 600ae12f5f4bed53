import Foundation
import GRDB
import Testing
import WaymarkCore
import WaymarkTestSupport

@testable import WaymarkStore

@Suite struct HistoryRetentionTests {
    @Test(arguments: [1, 3, 1_000])
    func pruningDeletesExactlyTheRowsBeforeTheCutoff(batchSize: Int) throws {
        let folder = try TemporaryDirectory()
        let store = try WaymarkStore(path: folder.path("history.sqlite"), logger: quietLogger)
        // Fixes at 0…19 s, gaps at 0, 5, 10, 15 s, events at 2, 9, 10, 11 s; recorded out of order.
        try store.recordFixes((0..<20).reversed().map(HistoryWriterDrill.fix), source: "drill")
        for s in [10.0, 0, 15, 5] {
            try store.recordGap(time: HistoryWriterDrill.startTime.adding(seconds: s), reason: "no-fix", source: "drill")
        }
        for s in [9.0, 10, 2, 11] {
            let time = HistoryWriterDrill.startTime.adding(seconds: s)
            try store.recordEvent(StoredEvent(time: time, kind: .location, record: #"{"kind":"location","time":"\#(time.rfc3339)"}"#))
        }
        let cutoff = HistoryWriterDrill.startTime.adding(seconds: 10)
        let deleted = try store.pruneHistory(before: cutoff, batchSize: batchSize)
        #expect(deleted == 10 + 2 + 2)
        #expect(try store.historyCountList() == [10, 2, 2])
        let times = try store.collect().map { "\($0.kind.rawValue)@\(Int($0.time.seconds(since: HistoryWriterDrill.startTime)))" }
        #expect(
            times == [
                "fix@10", "gap@10", "event@10", "fix@11", "event@11", "fix@12", "fix@13", "fix@14", "fix@15", "gap@15",
                "fix@16", "fix@17", "fix@18", "fix@19",
            ])
        // Nothing left to prune.
        #expect(try store.pruneHistory(before: cutoff, batchSize: batchSize) == 0)
    }

    /// The energy ledger is pruned by whole hours: an hour is deleted once it ended by the cutoff.
    @Test func pruningDeletesTheEnergyHoursThatEndedBeforeTheCutoff() throws {
        let folder = try TemporaryDirectory()
        let store = try WaymarkStore(path: folder.path("energy.sqlite"), logger: quietLogger)
        let hour = Timestamp(rfc3339: "2026-06-01T10:00:00Z")!
        try store.addEnergy((0..<3).map { h in
            EnergyBucket(
                hour: hour.adding(seconds: Double(h) * 3600), radio: "gnss", handler: "(daemon)", profile: "ublox-m8-usb",
                state: "tracking", seconds: 60, joules: 4)
        })
        // 11:30: the 10:00 hour has ended, 11:00 has not.
        #expect(try store.pruneHistory(before: hour.adding(seconds: 5400)) == 1)
        #expect(try store.energy().map(\.hour) == [hour.adding(seconds: 3600), hour.adding(seconds: 7200)])
        // At 12:00 exactly, 11:00 has ended.
        #expect(try store.pruneHistory(before: hour.adding(seconds: 7200)) == 1)
        #expect(try store.energy().count == 1)
    }
}
