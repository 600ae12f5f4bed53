import Testing
import WaymarkCore
import WaymarkRegions

/// The engine heeds each region's timing options (docs/semantics.md §3.2): `enterDelay`,
/// `exitDelay` and `maxAccuracy`, and names the rule that confirmed (issue 38).
@Suite struct RegionTimingEngineTests {
    private let centre = Coordinate(latitude: 46.05, longitude: 14.5)

    private func at(_ metresEast: Double, _ second: Int, accuracy: Double? = nil) -> Fix {
        var fix = Fix(
            time: Timestamp(nanosecondsSince1970: Int64(second) * 1_000_000_000),
            coordinate: Geodesic.destination(from: centre, azimuth: 90, distance: metresEast))
        fix.horizontalAccuracy = accuracy
        return fix
    }

    private func home(_ options: RegionOptions) -> RegionMonitor {
        RegionMonitor(regions: [Region(identifier: "home", shape: .circle(center: centre, radius: 100), options: options)])
    }

    /// The seconds after the first inside fix at which the entry is confirmed.
    private func entry(_ monitor: inout RegionMonitor, accuracy: Double? = nil) -> (Int, RegionTransition.Rule)? {
        _ = monitor.process(at(500, 0))
        for second in 1...400 {
            if let t = monitor.process(at(0, second, accuracy: accuracy)).transitions.first { return (second - 1, t.rule) }
        }
        return nil
    }

    @Test func enterDelayHoldsTheEntryThatLong() throws {
        var standard = home(RegionOptions())
        var patient = home(RegionOptions(enterDelay: 90))
        #expect(try #require(entry(&standard)).0 == 20)
        let (seconds, rule) = try #require(entry(&patient))
        #expect(seconds == 90 && rule == .margin)
    }

    @Test func exitDelayHoldsOnlyTheExit() throws {
        var monitor = home(RegionOptions(exitDelay: 180))
        #expect(try #require(entry(&monitor)).0 == 20)
        var confirmedAfter: Int?
        for second in 402...1000 where confirmedAfter == nil {
            if !monitor.process(at(500, second)).transitions.isEmpty { confirmedAfter = second - 402 }
        }
        #expect(confirmedAfter == 180)
    }

    @Test func fixesWorseThanMaxAccuracyNeitherConfirmNorCancel() throws {
        var strict = home(RegionOptions(maxAccuracy: 50))
        #expect(entry(&strict, accuracy: 80) == nil, "80 m fixes are never heeded")
        var monitor = home(RegionOptions(maxAccuracy: 50))
        _ = monitor.process(at(500, 0))
        _ = monitor.process(at(0, 1, accuracy: 10))  // the crossing starts
        // A poor fix back outside does not cancel it …
        _ = monitor.process(at(500, 2, accuracy: 200))
        // … so a good fix 20 s after the start confirms, stamped at the start.
        let transitions = monitor.process(at(0, 21, accuracy: 10)).transitions
        #expect(transitions.map(\.kind) == [.enter])
        #expect(transitions.first?.fix.time == Timestamp(nanosecondsSince1970: 1_000_000_000))
    }

    @Test func aPathJustInsideIsConfirmedByTheSettleRule() throws {
        var monitor = RegionMonitor(regions: [Region(identifier: "park", shape: .circle(center: centre, radius: 2000))])
        _ = monitor.process(at(2500, 0))
        var rule: RegionTransition.Rule?
        for second in 1...120 where rule == nil { rule = monitor.process(at(1990, second)).transitions.first?.rule }
        #expect(rule == .settled)
    }
}
