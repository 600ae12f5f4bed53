import Testing
import WaymarkCore
import WaymarkPower

/// The network radio's tail model and who pays for it, on an injected timeline
/// (docs/semantics.md §4.1).
@Suite struct NetworkEnergyTests {
    /// Round figures: 1 W active, 0.5 W tail, 0.01 W idle at 1 V; promotion 0.5 s, tail 10 s,
    /// 1,000 bytes a second (so a transfer's length is easy to see).
    static let modem = PowerProfile(
        name: "test-modem", radio: .cellular,
        states: [
            "off": PowerState(current: 0, voltage: 1, source: "t"), "idle": PowerState(current: 0.01, voltage: 1, source: "t"),
            "active": PowerState(current: 1, voltage: 1, source: "t"), "tail": PowerState(current: 0.5, voltage: 1, source: "t"),
        ],
        transfer: TransferTiming(promotionSeconds: 0.5, tailSeconds: 10, bytesPerSecond: 1000))

    func at(_ seconds: Double) -> Timestamp { Timestamp(rfc3339: "2026-06-01T10:00:00Z")!.adding(seconds: seconds) }

    /// Seconds and joules by state and party, from what `take` hands over.
    func totals(_ entries: [LedgerKey: LedgerEntry]) -> (seconds: [String: Double], joules: [String: Double]) {
        var seconds: [String: Double] = [:]
        var joules: [String: Double] = [:]
        for (key, entry) in entries {
            for (state, value) in entry.seconds { seconds[state, default: 0] += value }
            joules[key.handler, default: 0] += entry.joules
        }
        return (seconds, joules)
    }

    @Test func oneTransferCostsAPromotionItsBytesAndATail() throws {
        var energy = try NetworkEnergy(profile: Self.modem, at: at(0))
        try energy.transfer(2000, by: "output:home", at: at(100))
        #expect(energy.state == .active)
        let (seconds, joules) = totals(try energy.take(at: at(200)))
        // Active 0.5 + 2 s, tail 10 s, off the rest.
        #expect(abs(seconds["active"]! - 2.5) < 1e-9)
        #expect(abs(seconds["tail"]! - 10) < 1e-9)
        #expect(abs(seconds["off"]! - (200 - 12.5)) < 1e-9)
        #expect(abs(joules["output:home"]! - (2.5 * 1 + 10 * 0.5)) < 1e-9)
        #expect(energy.state == .off)
    }

    @Test func trafficInTheTailNeedsNoPromotionAndIsSharedByBytes() throws {
        var energy = try NetworkEnergy(profile: Self.modem, at: at(0))
        try energy.transfer(1000, by: "a", at: at(0))  // active 0–1.5, tail from 1.5
        try energy.transfer(3000, by: "b", at: at(5))  // active 5–8 (no promotion), tail 8–18
        let (seconds, joules) = totals(try energy.take(at: at(30)))
        #expect(abs(seconds["active"]! - 4.5) < 1e-9)
        #expect(abs(seconds["tail"]! - (3.5 + 10)) < 1e-9)
        // a alone for 1.5 s active and 3.5 s tail; then a:b = 1:3 for 3 s active and 10 s tail.
        let shared = 3 * 1.0 + 10 * 0.5
        #expect(abs(joules["a"]! - (1.5 + 3.5 * 0.5 + shared / 4)) < 1e-9)
        #expect(abs(joules["b"]! - shared * 3 / 4) < 1e-9)
    }

    @Test func aHeldConnectionKeepsTheRadioIdleAndItsPingsEachCostATail() throws {
        var energy = try NetworkEnergy(profile: Self.modem, at: at(0))
        try energy.opened(by: "output:broker", keepalive: 30, at: at(0))
        try energy.opened(by: NetworkMeterParty.listener, at: at(0))
        #expect(energy.state == .idle)
        let (seconds, joules) = totals(try energy.take(at: at(100)))
        // Pings at 30, 60 and 90 s: each a promotion (4 bytes take 4 ms) and a tail, the last cut at 100 s.
        let activeEach = 0.5 + Double(NetworkRadioState.pingBytes) / 1000
        #expect(abs(seconds["active"]! - 3 * activeEach) < 1e-9)
        #expect(abs(seconds["tail"]! - (10 + 10 + (10 - activeEach))) < 1e-9)
        #expect(abs(seconds["idle"]! - (100 - 3 * activeEach - 30 + activeEach)) < 1e-6)
        // Idle is split evenly between the two holders; the pings are the broker's alone.
        let idleEach = seconds["idle"]! * 0.01 / 2
        #expect(abs(joules[NetworkMeterParty.listener]! - idleEach) < 1e-9)
        #expect(abs(joules["output:broker"]! - (idleEach + 3 * activeEach + (30 - activeEach) * 0.5)) < 1e-6)
    }

    @Test func trafficPutsOffThePing() throws {
        var energy = try NetworkEnergy(profile: Self.modem, at: at(0))
        try energy.opened(by: "output:broker", keepalive: 30, at: at(0))
        try energy.transfer(500, by: "output:broker", at: at(20))  // the next ping is due at 50
        let (seconds, _) = totals(try energy.take(at: at(45)))
        #expect(abs(seconds["active"]! - 1.0) < 1e-9)
        #expect(abs(seconds["tail"]! - 10) < 1e-9)
    }

    @Test func closingTheLastConnectionTurnsTheRadioOffForWaymark() throws {
        var energy = try NetworkEnergy(profile: Self.modem, at: at(0))
        try energy.opened(by: "x", at: at(0))
        try energy.opened(by: "x", at: at(0))
        try energy.closed(by: "x", at: at(10))
        #expect(energy.state == .idle)
        try energy.closed(by: "x", at: at(20))
        #expect(energy.state == .off)
        let (seconds, _) = totals(try energy.take(at: at(50)))
        #expect(abs(seconds["idle"]! - 20) < 1e-9)
        #expect(abs(seconds["off"]! - 30) < 1e-9)
    }

    @Test func takingInPiecesAddsUpToTakingOnce() throws {
        var whole = try NetworkEnergy(profile: Self.modem, at: at(0))
        var pieces = whole
        for (index, time) in [3.0, 7, 40, 41, 300].enumerated() {
            try whole.transfer(700 * (index + 1), by: "p\(index % 2)", at: at(time))
            try pieces.transfer(700 * (index + 1), by: "p\(index % 2)", at: at(time))
            _ = try pieces.take(at: at(time + 2))
        }
        let once = totals(try whole.take(at: at(4000))).joules.values.reduce(0, +)
        #expect(abs(pieces.joulesSinceStart(at: at(4000)) - once) < 1e-9)
        #expect(once > 0)
    }

    @Test func aProfileThatIsNotANetworkRadioIsRefused() {
        #expect(throws: LedgerError.noProfile(.gnss)) { _ = try NetworkEnergy(profile: .ubloxM8USB, at: at(0)) }
    }

    /// The shipped LTE profile: one small webhook costs about 12 J, almost all of it the tail.
    @Test func anLTEWebhookIsMostlyTail() throws {
        var energy = try NetworkEnergy(profile: .lteModem, at: at(0))
        try energy.transfer(1500, by: "output:home", at: at(10))
        let joules = energy.joulesSinceStart(at: at(60))
        let power = 0.263 * 3.8
        #expect(abs(joules - power * (0.26 + 1500 / 750_000.0 + 11.6)) < 1e-9)
    }
}

/// The listener's party name, as the daemon spells it (`NetworkMeter.listener`).
enum NetworkMeterParty {
    static let listener = "(listener)"
}

