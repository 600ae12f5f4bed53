import Logging
import Testing
import WaymarkCore
import WaymarkServices
import WaymarkStore

@testable import WaymarkDaemon

/// Issue 48, finding 8, in a database from before the future rule: a stored fix dated 2200 is
/// the device's "last fix", which resumed subscribers' gates would judge every next fix against
/// (`timeBackwards` for ever, restart after restart). A network device's pipeline leaves it out.
@Suite struct SavedMarksFutureTests {
    static let quiet = Logger(label: "waymark.test", factory: { _ in SwiftLogNoOpLogHandler() })

    @Test func aStoredFixFromTheFutureIsNotReplayedIntoResumedGates() async throws {
        let store = try WaymarkStore.temporary(logger: Self.quiet)
        let now = Timestamp(rfc3339: "2026-06-01T10:00:00Z")!
        let here = Coordinate(latitude: 47, longitude: 8)
        let mark = ServiceMark(kind: .significantLocation, time: now.adding(seconds: -600), coordinate: here)
        _ = try await StoreWriter(store: store, logger: Self.quiet).write(
            [.serviceMarks([mark], subscriber: "subscription:s")], device: "phone", durability: .recorded)
        _ = try store.recordFixes(
            [Fix(time: now.adding(seconds: -60), coordinate: here), Fix(time: Timestamp(rfc3339: "2200-01-01T00:00:00Z")!, coordinate: here)],
            source: "network", device: "phone")
        let old = try store.savedMarks(device: "phone")
        #expect(old.fixes.map(\.time) == [Timestamp(rfc3339: "2200-01-01T00:00:00Z")!], "what the store calls the last fix")
        let resumed = try store.savedMarks(device: "phone", now: now)
        #expect(resumed.fixes.isEmpty)
        #expect(resumed.marks.count == 1)
    }
}
