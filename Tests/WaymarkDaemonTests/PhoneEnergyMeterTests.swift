import Foundation
import Testing
import WaymarkCore
import WaymarkPower
import WaymarkSources
import WaymarkTestSupport

@testable import WaymarkDaemon

/// The daemon's per-device phone estimates on a manual clock: rows cut at hour boundaries, so an
/// hour's row never holds more than the hour, and what is taken is taken once.
@Suite struct PhoneEnergyMeterTests {
    static let start = Timestamp(rfc3339: "2026-06-01T10:30:00Z")!

    static func location(mode: Int?, conn: String?) -> OwnTracksMessage {
        .location(OwnTracksLocation(
            fix: Fix(time: start, coordinate: Coordinate(latitude: 47, longitude: 8), horizontalAccuracy: 30),
            connectivity: conn, monitoringMode: mode))
    }

    @Test func rowsAreCutAtHourBoundariesAndAddUpToTheEstimate() {
        let clock = ManualWallClock(Self.start)
        let meter = PhoneEnergyMeter(clock: clock)
        meter.ownTracks([Self.location(mode: 2, conn: "m")], device: "phone", requestBytes: 400, replyBytes: 2)
        clock.advance(by: 1200)  // 10:50
        meter.ownTracks([Self.location(mode: 1, conn: "w")], device: "phone", requestBytes: 400, replyBytes: 2)
        clock.advance(by: 1800)  // 11:20: the next report cuts 10:00–11:00 first
        meter.ownTracks([Self.location(mode: 1, conn: "w")], device: "phone", requestBytes: 400, replyBytes: 2)
        let estimate = meter.estimate(device: "phone")
        clock.advance(by: 3 * 3600)  // 14:20, the flush long overdue
        let rows = meter.take()
        #expect(rows.map(\.hour.rfc3339) == ["2026-06-01T10:00:00Z", "2026-06-01T11:00:00Z", "2026-06-01T12:00:00Z", "2026-06-01T13:00:00Z", "2026-06-01T14:00:00Z"])
        #expect(rows[0].moveSeconds == 1200 && rows[0].significantSeconds == 600)
        #expect(rows.allSatisfy { $0.moveSeconds + $0.significantSeconds + $0.unknownSeconds <= 3600 })
        #expect(rows[1].significantSeconds == 3600 && rows[4].significantSeconds == 1200)
        #expect(rows.map(\.reports).reduce(0, +) == 3 && rows.map(\.networkFixes).reduce(0, +) == 2)
        let gnss = rows.map(\.gnssJoules).reduce(0, +)
        #expect(abs(gnss - 1200 * 0.19) < 1e-6 && abs(gnss - (estimate?.joules[.gnss] ?? 0)) < 1e-6)
        #expect(meter.take().isEmpty, "taken once")
    }

    @Test func unknownModesAndOsmAndAreCountedApartAndTheBrokersWillIsNoReport() {
        let clock = ManualWallClock(Self.start)
        let meter = PhoneEnergyMeter(clock: clock)
        meter.ownTracks([.lastWill(connectedAt: Self.start)], device: "phone", requestBytes: 40, replyBytes: 0)
        #expect(meter.estimate(device: "phone") == nil)
        meter.ownTracks([Self.location(mode: nil, conn: nil)], device: "phone", requestBytes: 300, replyBytes: 2)
        meter.osmAnd(device: "tracker", requestBytes: 120, replyBytes: 0)
        clock.advance(by: 600)
        for device in ["phone", "tracker"] {
            let estimate = meter.estimate(device: device)
            #expect(estimate?.unknownSeconds == 600 && estimate?.moveSeconds == 0, "\(device)")
            #expect((estimate?.joules[.cellular] ?? 0) > 0 && estimate?.joules[.gnss] == nil, "\(device): priced as mobile data")
        }
    }

    @Test func rowsAStoreRefusedComeBackWithTheNextTake() {
        let clock = ManualWallClock(Self.start)
        let meter = PhoneEnergyMeter(clock: clock)
        meter.ownTracks([Self.location(mode: 2, conn: "w")], device: "phone", requestBytes: 300, replyBytes: 2)
        clock.advance(by: 60)
        let first = meter.take()
        meter.giveBack(first)
        clock.advance(by: 60)
        let second = meter.take()
        #expect(second.map(\.moveSeconds).reduce(0, +) == 120)
    }
}

/// The device's clock is its reports' times: an hour of reports heard in a minute (a backlog, a
/// simulated phone) is priced as the hour it was, and a queued report never steps it back.
@Suite struct PhoneEnergyMeterClockTests {
    static func location(at seconds: Double, mode: Int) -> OwnTracksMessage {
        .location(OwnTracksLocation(
            fix: Fix(time: PhoneEnergyMeterTests.start.adding(seconds: seconds), coordinate: Coordinate(latitude: 47, longitude: 8)),
            connectivity: "m", monitoringMode: mode))
    }

    @Test func anHourOfReportsHeardInAMinuteIsPricedAsAnHour() {
        let clock = ManualWallClock(PhoneEnergyMeterTests.start)
        let meter = PhoneEnergyMeter(clock: clock)
        for minute in 0...60 {
            meter.ownTracks([Self.location(at: Double(minute) * 60, mode: minute < 30 ? 2 : 1)], device: "phone", requestBytes: 300, replyBytes: 2)
            clock.advance(by: 1)
        }
        let estimate = meter.estimate(device: "phone")
        #expect(estimate.map { abs($0.moveSeconds - 1800) < 1e-6 } == true, "\(String(describing: estimate))")
        #expect(estimate.map { abs($0.significantSeconds - 1801) < 1.5 } == true, "\(String(describing: estimate))")
    }

    @Test func aQueuedReportOlderThanTheClockIsPricedAtTheClock() {
        let clock = ManualWallClock(PhoneEnergyMeterTests.start)
        let meter = PhoneEnergyMeter(clock: clock)
        meter.ownTracks([Self.location(at: 600, mode: 2)], device: "phone", requestBytes: 300, replyBytes: 2)
        clock.advance(by: 10)
        meter.ownTracks([Self.location(at: 0, mode: 2)], device: "phone", requestBytes: 300, replyBytes: 2)
        #expect(meter.estimate(device: "phone")?.moveSeconds == 10)
    }
}
