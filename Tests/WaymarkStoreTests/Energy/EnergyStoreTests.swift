import Foundation
import GRDB
import Testing
import WaymarkCore
import WaymarkTestSupport

@testable import WaymarkStore

/// The stored energy ledger (`v6-energy`): buckets add up, the schema refuses nonsense, and
/// `energy(since:)` returns whole hours.
@Suite struct EnergyStoreTests {
    /// 2026-06-01T10:00:00Z plus `hours`.
    static func hour(_ hours: Int) -> Timestamp {
        Timestamp(rfc3339: "2026-06-01T10:00:00Z")!.adding(seconds: Double(hours) * 3600)
    }

    static func bucket(_ hours: Int, _ state: String = "tracking", handler: String = "(daemon)", seconds: Double, joules: Double)
        -> EnergyBucket
    {
        EnergyBucket(hour: hour(hours), radio: "gnss", handler: handler, profile: "ublox-m8-usb", state: state, seconds: seconds, joules: joules)
    }

    @Test func addingTheSameBucketAddsItsSecondsAndJoules() throws {
        let store = try WaymarkStore.temporary(logger: quietLogger)
        try store.addEnergy([Self.bucket(0, seconds: 600, joules: 39.6), Self.bucket(0, "acquiring", seconds: 30, joules: 2.25)])
        try store.addEnergy([Self.bucket(0, seconds: 60, joules: 3.96), Self.bucket(0, handler: "hiker", seconds: 10, joules: 0.66)])
        let stored = try store.energy()
        #expect(stored.map(\.state) == ["acquiring", "tracking", "tracking"])
        #expect(stored.map(\.handler) == ["(daemon)", "(daemon)", "hiker"])
        #expect(stored[1].seconds == 660)
        #expect(abs(stored[1].joules - 43.56) < 1e-9)
        #expect(stored[0] == Self.bucket(0, "acquiring", seconds: 30, joules: 2.25))
    }

    @Test func sinceSelectsTheHoursEndingAfterIt() throws {
        let store = try WaymarkStore.temporary(logger: quietLogger)
        try store.addEnergy((0..<4).map { Self.bucket($0, seconds: 100, joules: 1) })
        #expect(try store.energy(since: Self.hour(2)).map(\.hour) == [Self.hour(2), Self.hour(3)])
        // An instant inside hour 1 takes hour 1 whole.
        #expect(try store.energy(since: Self.hour(1).adding(seconds: 1800)).map(\.hour) == [Self.hour(1), Self.hour(2), Self.hour(3)])
        #expect(try store.energy(since: Self.hour(4)).isEmpty)
        #expect(try store.energy().count == 4)
    }

    @Test(
        "the schema refuses a bucket that cannot be",
        arguments: [
            EnergyBucket(hour: hour(0).adding(seconds: 1), radio: "gnss", handler: "(daemon)", profile: "p", state: "tracking", seconds: 1, joules: 1),
            EnergyBucket(hour: hour(0), radio: "lora", handler: "(daemon)", profile: "p", state: "tracking", seconds: 1, joules: 1),
            EnergyBucket(hour: hour(0), radio: "gnss", handler: "", profile: "p", state: "tracking", seconds: 1, joules: 1),
            EnergyBucket(hour: hour(0), radio: "gnss", handler: "(daemon)", profile: "p", state: "tracking", seconds: -1, joules: 1),
            EnergyBucket(hour: hour(0), radio: "gnss", handler: "(daemon)", profile: "p", state: "tracking", seconds: 1, joules: -0.5),
            EnergyBucket(hour: hour(0), radio: "gnss", handler: "(daemon)", profile: "p", state: "tracking", seconds: 3700, joules: 1),
        ])
    func refusedBucket(bucket: EnergyBucket) throws {
        let store = try WaymarkStore.temporary(logger: quietLogger)
        let good = Self.bucket(0, seconds: 1, joules: 1)
        #expect { try store.addEnergy([good, bucket]) } throws: { ($0 as? StoreError)?.code == .invalidRecord }
        // One transaction: the good bucket went with the bad one.
        #expect(try store.energy().isEmpty)
    }

    @Test func aBucketAddedPastTheHourIsRefused() throws {
        let store = try WaymarkStore.temporary(logger: quietLogger)
        try store.addEnergy([Self.bucket(0, seconds: 3000, joules: 1)])
        #expect(throws: StoreError.self) { try store.addEnergy([Self.bucket(0, seconds: 1000, joules: 1)]) }
        #expect(try store.energy().first?.seconds == 3000)
    }

    @Test func theTableIsAnOrdinarySQLiteTable() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("w.sqlite")
        try WaymarkStore(path: path, logger: quietLogger).addEnergy([Self.bucket(0, seconds: 5, joules: 0.33)])
        let result = try await spatialiteCLI(path, "SELECT radio, handler, profile, state, seconds FROM energy")
        #expect(result.stdoutLines == ["gnss|(daemon)|ublox-m8-usb|tracking|5.0"], "\(result.stderr)")
    }
}
