import Foundation
import GRDB
import Testing
import WaymarkCore
import WaymarkTestSupport

@testable import WaymarkStore

/// History write throughput, run on demand in a release build:
/// `WAYMARK_BENCH=1 swift test -c release --filter HistoryBenchmark`.
/// Off by default: timings on a shared machine are not a pass/fail signal.
@Suite("HistoryBenchmark", .serialized, .enabled(if: ProcessInfo.processInfo.environment["WAYMARK_BENCH"] != nil))
struct HistoryBenchmarkTests {
    static let fixes = (0..<20_000).map(HistoryWriterDrill.fix)

    func measure(_ name: String, count: Int, _ body: (WaymarkStore) throws -> Void) throws {
        let folder = try TemporaryDirectory()
        let store = try WaymarkStore(path: folder.path("bench.sqlite"), logger: quietLogger)
        let start = ContinuousClock.now
        try body(store)
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        print("bench history \(name): \(count) in \(String(format: "%.3f", seconds)) s, \(Int(Double(count) / seconds))/s")
        #expect(try store.historyCounts().fixes + store.historyCounts().events == count)
    }

    @Test func recordFixOnePerTransaction() throws {
        let fixes = Self.fixes.prefix(5_000)
        try measure("recordFix (NORMAL, switched from FULL)", count: fixes.count) { store in
            for fix in fixes { try store.recordFix(fix, source: "bench") }
        }
        try measure("recordFix at FULL (no switch)", count: 1_000) { store in
            for fix in fixes.prefix(1_000) { _ = try store.recordFix(fix, source: "bench", synchronous: .full) }
        }
    }

    @Test func recordFixesInBatchesOfAThousand() throws {
        try measure("recordFixes batches of 1000", count: Self.fixes.count) { store in
            for start in stride(from: 0, to: Self.fixes.count, by: 1_000) {
                try store.recordFixes(Array(Self.fixes[start..<start + 1_000]), source: "bench")
            }
        }
    }

    @Test func recordEventFullVersusNormal() throws {
        let events = (0..<1_000).map { n in
            let time = HistoryWriterDrill.startTime.adding(seconds: Double(n))
            return StoredEvent(time: time, kind: .location, record: #"{"kind":"location","time":"\#(time.rfc3339)"}"#)
        }
        try measure("recordEvent at FULL", count: events.count) { store in
            for event in events { try store.recordEvent(event) }
        }
        try measure("recordEvent at NORMAL", count: events.count) { store in
            for event in events { _ = try store.recordEvent(event, synchronous: .normal) }
        }
    }
}
