import Testing
import WaymarkCore
import WaymarkRegions

/// A phone's own transitions as evidence (`RegionMonitor.apply(reported:)`, docs/semantics.md
/// §3.8): one rule a test, on clean and on noisy fixes.
@Suite struct RegionMonitorReportedTests {
    private let centre = Coordinate(latitude: 46.05, longitude: 14.5)

    private func at(_ metresEast: Double, _ second: Int, accuracy: Double? = 10, north: Double = 0) -> Fix {
        let east = Geodesic.destination(from: centre, azimuth: metresEast < 0 ? 270 : 90, distance: abs(metresEast))
        var fix = Fix(
            time: Timestamp(nanosecondsSince1970: Int64(second) * 1_000_000_000),
            coordinate: north == 0 ? east : Geodesic.destination(from: east, azimuth: north < 0 ? 180 : 0, distance: abs(north)))
        fix.horizontalAccuracy = accuracy
        return fix
    }

    private func phone(_ entering: Bool, _ second: Int, metresEast: Double = 150, region: String = "zone") -> ReportedCrossing {
        ReportedCrossing(
            identifier: region, entering: entering, time: Timestamp(nanosecondsSince1970: Int64(second) * 1_000_000_000),
            fix: at(metresEast, second))
    }

    private func monitor(radius: Double = 200, options: RegionOptions = RegionOptions()) -> RegionMonitor {
        var zone = Region(identifier: "zone", shape: .circle(center: centre, radius: radius))
        zone.options = options
        return RegionMonitor(regions: [zone])
    }

    private func describe(_ transitions: [RegionTransition]) -> [String] {
        transitions.map { "\($0.kind.rawValue) @\(Int($0.fix.time!.secondsSince1970)) \($0.rule.rawValue)" }
    }

    private func run(_ monitor: inout RegionMonitor, _ fixes: [Fix]) -> [String] {
        describe(fixes.flatMap { monitor.process($0).transitions })
    }

    private func report(_ monitor: inout RegionMonitor, _ crossings: [ReportedCrossing]) -> [String] {
        describe(crossings.flatMap { monitor.apply(reported: $0).transitions })
    }

    @Test func anEntryReportedWhileOutsideIsTheServersOwnAtThePhonesTime() {
        var zone = monitor()
        #expect(run(&zone, [at(2000, 0)]) == [])
        #expect(report(&zone, [phone(true, 100)]) == ["enter @100 phone"])
        #expect(zone.state(ofRegionAt: 0) == .inside(since: Timestamp(nanosecondsSince1970: 100_000_000_000)))
        let saved = zone.savedState(ofRegionAt: 0)
        #expect(saved?.inside == true && saved?.since == Timestamp(nanosecondsSince1970: 100_000_000_000))
        // A restart restores it like any other state.
        var restarted = monitor()
        restarted.restore(SavedRegionStates([saved!]))
        #expect(restarted.inside == [0])
    }

    @Test func anEntryReportedBeforeAnyFixIsAnEntry() {
        var zone = monitor()
        #expect(report(&zone, [phone(true, 100)]) == ["enter @100 phone"])
        // The first fix, inside, establishes nothing more and repeats nothing.
        #expect(run(&zone, [at(100, 130), at(100, 160)]) == [])
        #expect(zone.inside == [0])
    }

    @Test func aReportTheFixesAlreadyConfirmedAddsNothing() {
        var zone = monitor()
        #expect(run(&zone, [at(2000, 0), at(50, 100), at(50, 125)]) == ["enter @100 margin"])
        #expect(report(&zone, [phone(true, 110)]) == [])
        #expect(report(&zone, [phone(true, 130)]) == [], "a later copy of the same crossing agrees too")
    }

    @Test func aLateReportDoesNotUndoANewerFixBasedDecision() {
        var zone = monitor()
        #expect(run(&zone, [at(2000, 0), at(50, 100), at(50, 125)]) == ["enter @100 margin"])
        // A leave from before the fixes' entry: replayed or late.
        #expect(report(&zone, [phone(false, 60)]) == [])
        #expect(zone.inside == [0])
        // An entry the phone saw between two fixes outside, arriving after the second.
        var other = monitor()
        _ = run(&other, [at(2000, 0), at(2100, 300)])
        #expect(report(&other, [phone(true, 200)]) == [])
        #expect(other.inside.isEmpty)
    }

    @Test func aPendingCrossingAndThePhonesReportOfItAreOneEvent() {
        var zone = monitor()
        _ = run(&zone, [at(2000, 0)])
        #expect(run(&zone, [at(120, 100)]) == [], "pending: the delay has not held")
        #expect(report(&zone, [phone(true, 110)]) == ["enter @100 phone"], "stamped at the earlier, the fix's")
        #expect(run(&zone, [at(110, 120), at(100, 140)]) == [])
        // The phone's report older than the pending fix, arriving after it: stamped at the phone's.
        var late = monitor()
        _ = run(&late, [at(2000, 0), at(120, 100)])
        #expect(report(&late, [phone(true, 90)]) == ["enter @90 phone"])
        #expect(run(&late, [at(110, 125)]) == [])
        #expect(late.nextDue(after: Timestamp(nanosecondsSince1970: 125_000_000_000)) == nil, "nothing left pending")
    }

    @Test func fixesAfterAPhonesEntryKeepTheUsualRules() {
        var zone = monitor()
        _ = run(&zone, [at(2000, 0)])
        #expect(report(&zone, [phone(true, 100)]) == ["enter @100 phone"])
        // One fix far away is a pending exit; the second, past the delay, confirms it.
        #expect(run(&zone, [at(1500, 400)]) == [])
        #expect(run(&zone, [at(1600, 430)]) == ["exit @400 margin"])
    }

    @Test func noisyFixesInsideDoNotUndoAPhonesEntry() {
        var zone = monitor()
        _ = run(&zone, [at(2000, 0)])
        #expect(report(&zone, [phone(true, 100)]) == ["enter @100 phone"])
        // Parked 170 m in, 30 m from the edge: a phone's wandering error (± 15 m, correlated
        // from fix to fix) takes some fixes past the edge; one fix has no accuracy; one outlier
        // lands 800 m away; then a 20-minute gap.
        var random = SplitMix64(seed: 43)
        var drift = 0.0
        var fixes: [Fix] = []
        for k in 0..<60 {
            drift = 0.8 * drift + 0.6 * gaussian(&random) * 15
            fixes.append(at(170 + drift, 110 + 10 * k, accuracy: 20, north: gaussian(&random) * 10))
        }
        fixes[20].horizontalAccuracy = nil
        fixes[30] = at(950, 410, accuracy: 30)
        fixes.append(at(170, 110 + 10 * 60 + 1200, accuracy: 20))
        #expect(fixes.filter { Geodesic.distance($0.coordinate, centre) > 200 }.count >= 3, "some fixes do fall outside")
        #expect(run(&zone, fixes) == [])
        #expect(zone.inside == [0])
        // The same fixes after an entry the fixes confirmed: the same rules, the same outcome.
        var fixBased = monitor()
        _ = run(&fixBased, [at(2000, 0), at(100, 70), at(100, 100)])
        #expect(fixBased.inside == [0])
        #expect(run(&fixBased, fixes) == [])
    }

    @Test func flappingReportsGiveNoMoreEventsThanThePhoneReported() {
        var zone = monitor()
        _ = run(&zone, [at(2000, 0)])
        let flaps = [phone(true, 100), phone(false, 103, metresEast: 210), phone(true, 106)]
        #expect(report(&zone, flaps) == ["enter @100 phone", "exit @103 phone", "enter @106 phone"])
        #expect(report(&zone, flaps) == [], "the same reports again (a replay) are late")
        #expect(report(&zone, [phone(true, 109)]) == [], "a repeated entry agrees")
    }

    @Test func onlyCirclesThePhoneWatchesAsTheyAreCount() {
        var small = monitor(radius: 50)
        _ = run(&small, [at(2000, 0)])
        #expect(report(&small, [phone(true, 100, metresEast: 20)]) == [], "below 100 m the phone holds a trigger circle")
        let square = Region(
            identifier: "zone",
            shape: .polygons([
                Polygon(exterior: [-300.0, 300].flatMap { e in [-300.0, 300].map { n in at(e, 0, north: n).coordinate } }.reordered)
            ]))
        var polygon = RegionMonitor(regions: [square])
        _ = run(&polygon, [at(2000, 0)])
        #expect(report(&polygon, [phone(true, 100, metresEast: 0)]) == [])
        var zone = monitor()
        _ = run(&zone, [at(2000, 0)])
        #expect(report(&zone, [phone(true, 100, region: "elsewhere")]) == [], "an unknown identifier")
        var unplaced = phone(true, 100)
        unplaced.fix = nil
        #expect(report(&zone, [unplaced]) == [], "no position")
        #expect(report(&zone, [phone(true, 1)]) == [], "1.85 km from a fix one second before: contradicts the fixes")
        #expect(zone.inside.isEmpty)
    }

    @Test func aDwellWaitsFromAPhonesEntry() {
        var options = RegionOptions()
        options.loiteringDelay = 60
        var zone = monitor(options: options)
        _ = run(&zone, [at(2000, 0)])
        #expect(report(&zone, [phone(true, 100)]) == ["enter @100 phone"])
        #expect(run(&zone, [at(100, 150)]) == [])
        #expect(run(&zone, [at(100, 170)]) == ["dwell @170 dwell"])
    }

    @Test func aPassThePhoneReportedIsNotInferredAgainFromSparseFixes() {
        var zone = monitor()
        // Sparse fixes either side of the circle; the straight path between them crosses it.
        _ = run(&zone, [at(-1000, 0)])
        #expect(report(&zone, [phone(true, 60, metresEast: -150), phone(false, 90, metresEast: 150)]) == [
            "enter @60 phone", "exit @90 phone",
        ])
        #expect(run(&zone, [at(1000, 150)]) == [])
        // Without the phone's report the same path is inferred, as before.
        var unreported = monitor()
        _ = run(&unreported, [at(-1000, 0)])
        #expect(run(&unreported, [at(1000, 150)]).map { $0.hasSuffix("crossed") } == [true, true])
    }
}

extension Array where Element == Coordinate {
    /// The four corners of a square in ring order, closed.
    fileprivate var reordered: [Coordinate] { [self[0], self[1], self[3], self[2], self[0]] }
}
