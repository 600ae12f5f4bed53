import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

@testable import WaymarkStore

/// `fixDays` on a device with a million fixes, run on demand:
/// `WAYMARK_BENCH=1 swift test --filter FixDaysBenchmark` (BENCHMARKS.md, "Days with data").
/// `WAYMARK_BENCH_STORE=PATH` keeps the store there, to ask a daemon over it.
@Suite("FixDaysBenchmark", .enabled(if: ProcessInfo.processInfo.environment["WAYMARK_BENCH"] != nil))
struct FixDaysBenchmarkTests {
    @Test func aMillionFixesOverFiveWeeks() throws {
        let folder = try TemporaryDirectory()
        let path = ProcessInfo.processInfo.environment["WAYMARK_BENCH_STORE"] ?? folder.path("bench.sqlite")
        let store = try WaymarkStore(path: path, logger: quietLogger)
        // The phone: 8 hours a day at 1 Hz from 08:00Z for 35 days (1,008,000 fixes); the
        // receiver beside it, 100,000 fixes the query must skip.
        let start = Timestamp(rfc3339: "2026-05-01T08:00:00Z")!
        var batch: [Fix] = []
        for day in 0..<35 {
            for second in 0..<28_800 {
                var fix = HistoryWriterDrill.fix(day * 28_800 + second)
                fix.time = start.adding(seconds: Double(day * 86_400 + second))
                batch.append(fix)
                if batch.count == 20_000 {
                    _ = try store.recordFixes(batch, source: "bench", device: "phone")
                    batch.removeAll(keepingCapacity: true)
                }
            }
        }
        _ = try store.recordFixes(batch, source: "bench", device: "phone")
        _ = try store.recordFixes((0..<100_000).map(HistoryWriterDrill.fix), source: "bench")
        for zone in ["UTC", "Europe/Berlin", "Asia/Kathmandu"] {
            var runs: [Double] = []
            var days: [FixDay] = []
            for _ in 0..<5 {
                let began = ContinuousClock.now
                days = try store.fixDays(device: "phone", timeZone: TimeZone(identifier: zone)!)
                runs.append((ContinuousClock.now - began) / .milliseconds(1))
            }
            print("bench fixDays \(zone): \(days.count) days, \(days.reduce(0) { $0 + $1.fixes }) fixes, median \(String(format: "%.0f", runs.sorted()[2])) ms (\(runs.map { String(format: "%.0f", $0) }.joined(separator: ", ")))")
            #expect(days.reduce(0) { $0 + $1.fixes } == 1_008_000)
        }
    }
}
