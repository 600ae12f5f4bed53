import Testing
import WaymarkCore
import WaymarkPower

/// The ledger's arithmetic and attribution, on an injected timeline.
@Suite struct EnergyLedgerTests {
    static let gnss = PowerProfile(
        name: "test-gnss", radio: .gnss,
        states: [
            "off": PowerState(current: 0, voltage: 3, source: "t"), "acquiring": PowerState(current: 0.025, voltage: 3, source: "t"),
            "tracking": PowerState(current: 0.022, voltage: 3, source: "t"), "powerSave": PowerState(current: 0.006, voltage: 3, source: "t"),
        ])
    static let ble = PowerProfile(
        name: "test-ble", radio: .bluetooth,
        states: ["off": PowerState(current: 0, voltage: 3.3, source: "t"), "scanning": PowerState(current: 0.006, voltage: 3.3, source: "t")])

    /// 2026-06-01T10:00:00Z plus `seconds`.
    func at(_ seconds: Double) -> Timestamp { Timestamp(rfc3339: "2026-06-01T10:00:00Z")!.adding(seconds: seconds) }

    @Test func energyIsTimeInStateTimesCurrentTimesVoltage() throws {
        var ledger = EnergyLedger(profiles: [Self.gnss])
        try ledger.set(.gnss, to: "acquiring", at: at(0))
        try ledger.set(.gnss, to: "tracking", at: at(30))
        try ledger.set(.gnss, to: "off", at: at(630))
        try ledger.close(at: at(3000))
        #expect(ledger.seconds(.gnss, in: "acquiring") == 30)
        #expect(ledger.seconds(.gnss, in: "tracking") == 600)
        #expect(ledger.seconds(.gnss, in: "off") == 2370)
        // 30 s × 25 mA × 3 V + 600 s × 22 mA × 3 V = 2.25 + 39.6 J
        #expect(abs(ledger.joules(radio: .gnss) - 41.85) < 1e-9)
        #expect(ledger.entries.keys.allSatisfy { $0.profile == "test-gnss" && $0.handler == EnergyLedger.unattributed })
    }

    @Test func sharedRadioTimeIsSplitAcrossHandlersInProportion() throws {
        var ledger = EnergyLedger(profiles: [Self.gnss])
        try ledger.set(.gnss, to: "tracking", at: at(0), handlers: ["hiker": 1, "logger": 1])
        try ledger.set(.gnss, to: "tracking", at: at(100), handlers: ["hiker": 3, "logger": 1])
        try ledger.close(at: at(200))
        // First 100 s half each (3.3 J each); then 3/4 and 1/4 of 6.6 J.
        #expect(abs(ledger.joules(handler: "hiker") - (3.3 + 4.95)) < 1e-9)
        #expect(abs(ledger.joules(handler: "logger") - (3.3 + 1.65)) < 1e-9)
        #expect(abs(ledger.joules() - 13.2) < 1e-9)
    }

    @Test func timeIsKeptPerHourAcrossBoundaries() throws {
        var ledger = EnergyLedger(profiles: [Self.gnss])
        try ledger.set(.gnss, to: "tracking", at: at(3000))  // 10:50
        try ledger.close(at: at(4200))  // 11:10
        let hours = ledger.entries.keys.map(\.hour).sorted()
        #expect(hours == [at(0), at(3600)])
        #expect(ledger.entries.values.map { $0.seconds["tracking"]! }.sorted() == [600, 600])
        #expect(abs(ledger.joules(since: at(3600)) - 600 * 0.066) < 1e-9)
    }

    @Test func aScanningRadioIsPricedByItsDutyCycle() throws {
        var ledger = EnergyLedger(profiles: [Self.gnss, Self.ble])
        try ledger.set(.bluetooth, to: "scanning", at: at(0), dutyCycle: 0.5, handlers: ["door": 1])
        try ledger.close(at: at(1000))
        // 1000 s × 6 mA × 3.3 V × 0.5
        #expect(abs(ledger.joules(radio: .bluetooth, handler: "door") - 9.9) < 1e-9)
        #expect(ledger.seconds(.bluetooth, in: "scanning") == 1000)
    }

    @Test func takingHandsOverTheEntriesAndKeepsTheRadiosRunning() throws {
        var ledger = EnergyLedger(profiles: [Self.gnss])
        try ledger.set(.gnss, to: "acquiring", at: at(0))
        try ledger.set(.gnss, to: "tracking", at: at(30))
        let first = try ledger.take(at: at(100))
        #expect(ledger.entries.isEmpty)
        let entry = try #require(first.values.first)
        #expect(first.count == 1 && entry.seconds == ["acquiring": 30, "tracking": 70])
        // Joules by state: 30 s × 75 mW, 70 s × 66 mW; together the entry's joules.
        #expect(abs(entry.joulesByState["acquiring"]! - 2.25) < 1e-9 && abs(entry.joulesByState["tracking"]! - 4.62) < 1e-9)
        #expect(abs(entry.joules - 6.87) < 1e-9)
        // Still tracking: the next piece starts where the first ended.
        let second = try ledger.take(at: at(200))
        #expect(second.values.first?.seconds == ["tracking": 100])
    }

    @Test func mistakesAreRefused() throws {
        var ledger = EnergyLedger(profiles: [Self.gnss])
        #expect(throws: LedgerError.noProfile(.wifi)) { try ledger.set(.wifi, to: "scanning", at: at(0)) }
        #expect(throws: LedgerError.unknownState(.gnss, "sleeping", profile: "test-gnss")) { try ledger.set(.gnss, to: "sleeping", at: at(0)) }
        #expect(throws: LedgerError.invalidDutyCycle(2)) { try ledger.set(.gnss, to: "tracking", at: at(0), dutyCycle: 2) }
        try ledger.set(.gnss, to: "tracking", at: at(10))
        #expect(throws: LedgerError.timeBackwards(.gnss, from: at(10), to: at(5))) { try ledger.set(.gnss, to: "off", at: at(5)) }
    }
}
