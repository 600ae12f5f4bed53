import Testing
import WaymarkCore
import WaymarkRegions

/// `nextDue`: when a power-aware receiver must be awake for a pending crossing or a dwell.
@Suite struct RegionMonitorDueTests {
    /// A 2° square: deep inside, the default hysteresis is the 200 m cap.
    let square = Region(identifier: "square", shape: .polygons([Polygon(exterior: ring([(0, 0), (2, 0), (2, 2), (0, 2)]))]))

    func at(_ second: Int) -> Timestamp { Timestamp(nanosecondsSince1970: Int64(second) * 1_000_000_000) }

    @Test func nothingIsDueInASteadyState() {
        var monitor = RegionMonitor(regions: [square])
        _ = monitor.process(fix(-1, 1, second: 0))
        _ = monitor.process(fix(-1, 1, second: 5))
        #expect(monitor.nextDue(after: at(5)) == nil)
    }

    @Test func aPendingCrossingIsDueWhenItsConfirmationTimeHasHeld() {
        var monitor = RegionMonitor(regions: [square])
        _ = monitor.process(fix(-1, 1, second: 0))
        _ = monitor.process(fix(1, 1, second: 10))  // deep inside: pending from 10 s
        #expect(monitor.nextDue(after: at(10)) == at(30))
        #expect(monitor.nextDue(after: at(25)) == at(30))
        // Its time has held but it is not confirmed (here: no fix since): due at once.
        #expect(monitor.nextDue(after: at(31)) == at(31))
        #expect(monitor.process(fix(1, 1, second: 30)).transitions.map(\.kind) == [.enter])
        #expect(monitor.nextDue(after: at(30)) == nil)
    }

    @Test func aDwellIsDueAfterItsLoiteringDelay() {
        var region = square
        region.options.loiteringDelay = 120
        region.options.confirmationTime = 0
        var monitor = RegionMonitor(regions: [region])
        _ = monitor.process(fix(-1, 1, second: 0))
        _ = monitor.process(fix(1, 1, second: 10))  // entered at 10 s, at once
        #expect(monitor.inside == [0])
        #expect(monitor.nextDue(after: at(10)) == at(130))
    }
}
