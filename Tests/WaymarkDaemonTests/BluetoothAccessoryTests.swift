import Foundation
import Logging
import Synchronization
import Testing
import WaymarkBeacons
import WaymarkCore
import WaymarkPipeline
import WaymarkSources
import WaymarkStore
import WaymarkTestSupport
@testable import WaymarkDaemon

/// The Bluetooth feed's accessory events (docs/semantics.md §1.7). No adapter can be had on this
/// machine, so the scan is scripted at the one seam below the feed (``BeaconScanner``); the
/// daemon test with `--bluetooth` and no adapter (ServeBeaconTests) covers the real adapter's
/// absence.
@Suite struct BluetoothAccessoryTests {
    /// A scan that fails, then runs for a moment and ends, then fails for good: an adapter
    /// missing at start, plugged in, then pulled out.
    final class ScriptedScanner: BeaconScanner {
        let starts = Mutex(0)
        var description: String { "bluetooth:hci7" }

        func start() throws -> AsyncThrowingStream<BeaconAdvertisement, any Error> {
            let start = starts.withLock { count in
                count += 1
                return count
            }
            guard start == 2 else { throw BluetoothError(code: .noAdapter, message: "no Bluetooth adapter hci7") }
            return AsyncThrowingStream { continuation in
                Task {
                    try? await Task.sleep(for: .milliseconds(50))
                    continuation.finish(throwing: BluetoothError(code: .readFailed, message: "the adapter went away"))
                }
            }
        }
    }

    static func accessoryRecords(_ store: WaymarkStore) throws -> [String] {
        var records: [String] = []
        try store.history(HistoryQuery(kinds: [.event])) { item in
            if case .event(let event) = item, event.kind == .accessory { records.append(event.record) }
        }
        return records
    }

    @Test func anAdapterComingAndGoingIsTwoEventsAndItsAbsenceAtStartNone() async throws {
        let quiet = LivePowerTests.quiet
        let store = try WaymarkStore.temporary(logger: quiet)
        let clock = ManualWallClock(LivePowerTests.start)
        let pipeline = LivePipeline(
            store: store, writer: StoreWriter(store: store, logger: quiet), regions: RegionMonitors([]), sourceKind: .gpsd,
            sourceDescription: "gpsd:test", feed: LiveFeed(), recordFixes: true, power: PowerSettings(), clock: clock, logger: quiet)
        let scanner = ScriptedScanner()
        var service = BluetoothFeedService(settings: BluetoothSettings(adapter: "hci7"), pipeline: pipeline, logger: quiet)
        service.scanner = scanner
        service.retryInterval = .milliseconds(20)
        let running = Task { try await service.run() }
        defer { running.cancel() }
        let both = try await BackgroundProcess.waitUntil(timeout: 10) {
            await pipeline.finishSubscriptions()
            return try Self.accessoryRecords(store).count >= 2 && scanner.starts.withLock { $0 } >= 4
        }
        #expect(both)
        let records = try Self.accessoryRecords(store)
        #expect(records.map { $0.contains("\"event\":\"adapterUp\"") } == [true, false])
        #expect(records.map { $0.contains("\"event\":\"adapterDown\"") } == [false, true])
        #expect(records.allSatisfy { $0.contains("\"device\":\"hci7\"") })
    }
}
