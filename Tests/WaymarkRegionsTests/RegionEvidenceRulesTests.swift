import Testing
import WaymarkCore
import WaymarkRegions

/// The rules of docs/semantics.md §3.3's table, one case each (issue 38): accuracy weighs
/// cancelling as it weighs confirming, the settle rule counts fixes, outliers against a rest hold
/// the state, a departure is taken in order, and a zone smaller than the error can be entered.
@Suite struct RegionEvidenceRulesTests {
    private let centre = Coordinate(latitude: 46.05, longitude: 14.5)

    private func at(_ metresEast: Double, _ second: Int, accuracy: Double? = nil, north: Double = 0) -> Fix {
        let east = Geodesic.destination(from: centre, azimuth: 90, distance: metresEast)
        var fix = Fix(
            time: Timestamp(nanosecondsSince1970: Int64(second) * 1_000_000_000),
            coordinate: north == 0 ? east : Geodesic.destination(from: east, azimuth: 0, distance: north))
        fix.horizontalAccuracy = accuracy
        return fix
    }

    private func monitor(radius: Double) -> RegionMonitor {
        RegionMonitor(regions: [Region(identifier: "zone", shape: .circle(center: centre, radius: radius))])
    }

    private func run(_ monitor: inout RegionMonitor, _ fixes: [Fix]) -> [String] {
        fixes.flatMap { monitor.process($0).transitions }.map { "\($0.kind.rawValue) @\(Int($0.fix.time!.secondsSince1970))" }
    }

    @Test func aStraddlingFixNeitherConfirmsNorCancels() {
        var zone = monitor(radius: 300)
        // Inside, moving outwards (so never at rest), then outside for good.
        _ = run(&zone, (0..<10).map { at(100 + Double($0) * 5, $0, accuracy: 10) })
        #expect(run(&zone, [at(400, 10, accuracy: 10)]) == [], "the exit is pending")
        // Back 10 m inside with ± 30 m: straddles, so the exit stays pending …
        #expect(run(&zone, [at(290, 11, accuracy: 30)]) == [])
        // … and a clear fix outside 20 s after the start confirms it, stamped at the start.
        #expect(run(&zone, [at(420, 30, accuracy: 10)]) == ["exit @10"])
    }

    @Test func aClearFixBackInsideCancels() {
        var zone = monitor(radius: 300)
        _ = run(&zone, (0..<10).map { at(100 + Double($0) * 5, $0, accuracy: 10) })
        _ = run(&zone, [at(400, 10, accuracy: 10), at(250, 11, accuracy: 30)])
        #expect(run(&zone, [at(420, 30, accuracy: 10)]) == [], "cancelled: the exit starts again at 30")
        #expect(run(&zone, [at(430, 50, accuracy: 10)]) == ["exit @30"])
    }

    @Test func theSettleRuleCountsFixesNotOnlySeconds() {
        var zone = monitor(radius: 301)
        _ = run(&zone, [at(320, 0, accuracy: 5)])
        // 30 s apart, 10 m inside, ± 5 m: the margin (60 m) is never reached; 60 s is, and
        // 90 s, but with three and four fixes.
        #expect(run(&zone, [0, 30, 60, 90].map { at(291, 30 + $0, accuracy: 5, north: Double($0) / 10) }) == [])
        #expect(run(&zone, [at(291, 150, accuracy: 5, north: 12)]) == ["enter @30"], "the fifth fix settles it")
    }

    @Test func anOutlierAgainstARestHoldsTheStateAndADepartureIsTakenInOrder() {
        var zone = monitor(radius: 50)
        _ = run(&zone, (0..<300).map { at(Double($0 % 7) - 3, $0, accuracy: 10) })
        #expect(zone.estimate != nil, "at rest")
        // One fix 300 m away, then back: nothing.
        #expect(run(&zone, [at(300, 300, accuracy: 10), at(1, 301, accuracy: 10)]) == [])
        // A departure: three fixes in a row that agree, then onwards.
        let away = run(&zone, (302..<340).map { at(200 + Double($0 - 302) * 10, $0, accuracy: 10) })
        #expect(away == ["exit @302"], "stamped with the first fix of the departure")
    }

    @Test func aZoneSmallerThanTheErrorIsEnteredAtRest() {
        var zone = monitor(radius: 11)
        _ = run(&zone, [at(300, 0, accuracy: 30)])
        // Resting on the zone's centre with ± 30 m fixes that scatter ± 20 m.
        var rng = SplitMix64(seed: 9)
        let fixes = (1...900).map { second in at(14 * rng.nextGaussian(), second, accuracy: 30, north: 14 * rng.nextGaussian()) }
        let transitions = run(&zone, fixes)
        #expect(transitions.first?.hasPrefix("enter") == true, "\(transitions)")
        #expect(transitions.count == 1, "and no flip: \(transitions)")
    }
}
