import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

@testable import WaymarkStore

/// The stored phone estimates (`v20-phone-energy`): rows add up per device, hour and profile, the
/// schema refuses nonsense, a device's rows are its own, and pruning drops ended hours.
@Suite struct PhoneEnergyStoreTests {
    static func hour(_ hours: Int) -> Timestamp {
        Timestamp(rfc3339: "2026-06-01T10:00:00Z")!.adding(seconds: Double(hours) * 3600)
    }

    static func row(_ device: String = "phone", _ hours: Int = 0, move: Double = 0, significant: Double = 0, cellular: Double = 0)
        -> PhoneEnergyBucket
    {
        PhoneEnergyBucket(
            device: device, hour: hour(hours), profile: "phone-gnss + phone-wifi + phone-lte", gnssJoules: move * 0.19,
            wifiJoules: 0.684, cellularJoules: cellular, moveSeconds: move, significantSeconds: significant, reports: 2,
            queuedReports: 1, networkFixes: 1)
    }

    @Test func rowsOfOneDeviceAndHourAddUpAndOtherDevicesStayApart() throws {
        let store = try WaymarkStore.temporary(logger: quietLogger)
        try store.addPhoneEnergy([Self.row(move: 1200, cellular: 40), Self.row("tablet", move: 60)])
        try store.addPhoneEnergy([Self.row(significant: 1800, cellular: 12.5), Self.row("phone", 1, move: 10)])
        let phone = try store.phoneEnergy(device: "phone")
        #expect(phone.map(\.hour) == [Self.hour(0), Self.hour(1)])
        #expect(phone[0].moveSeconds == 1200 && phone[0].significantSeconds == 1800)
        #expect(abs(phone[0].cellularJoules - 52.5) < 1e-9 && abs(phone[0].wifiJoules - 1.368) < 1e-9)
        #expect(phone[0].reports == 4 && phone[0].queuedReports == 2 && phone[0].networkFixes == 2)
        #expect(try store.phoneEnergy(device: "phone", since: Self.hour(1).adding(seconds: 30)).map(\.hour) == [Self.hour(1)])
        #expect(try store.phoneEnergy(device: "tablet").map(\.moveSeconds) == [60])
        #expect(try store.phoneEnergy(device: "nobody").isEmpty)
    }

    @Test(
        "the schema refuses a row that cannot be",
        arguments: [
            PhoneEnergyBucket(device: "phone", hour: hour(0).adding(seconds: 1), profile: "p"),
            PhoneEnergyBucket(device: "", hour: hour(0), profile: "p"),
            PhoneEnergyBucket(device: "phone", hour: hour(0), profile: ""),
            PhoneEnergyBucket(device: "phone", hour: hour(0), profile: "p", cellularJoules: -1),
            PhoneEnergyBucket(device: "phone", hour: hour(0), profile: "p", moveSeconds: 3700),
            PhoneEnergyBucket(device: "phone", hour: hour(0), profile: "p", reports: -2),
        ])
    func refusedRow(row: PhoneEnergyBucket) throws {
        let store = try WaymarkStore.temporary(logger: quietLogger)
        #expect { try store.addPhoneEnergy([Self.row(move: 10), row]) } throws: { ($0 as? StoreError)?.code == .invalidRecord }
        #expect(try store.phoneEnergy(device: "phone").isEmpty)
    }

    @Test func pruningDropsEndedHours() throws {
        let store = try WaymarkStore.temporary(logger: quietLogger)
        try store.addPhoneEnergy([Self.row("phone", 0, move: 10), Self.row("phone", 1, move: 10), Self.row("phone", 2, move: 10)])
        _ = try store.pruneHistory(before: Self.hour(2))
        #expect(try store.phoneEnergy(device: "phone").map(\.hour) == [Self.hour(2)])
    }
}
