import Testing
import WaymarkCore
import WaymarkPower
import WaymarkRegions

@testable import WaymarkDaemon

/// The daemon's sampler bounds the device by its own recent motion, as replay's receiver does
/// (issue 43): a cyclist's fixes let gpsd sleep longer than the default activity's 60 m/s would,
/// and a first fix, with nothing learned, gets the plain rule.
@Suite struct GNSSSamplerMotionTests {
    let t0 = Timestamp(rfc3339: "2026-06-01T10:00:00Z")!
    static let centre = Coordinate(latitude: 47, longitude: 8)

    /// A fix `metres` north of the centre at `seconds` after t0, 5 m accuracy.
    func fix(metres: Double, at seconds: Double) -> Fix {
        Fix(
            time: t0.adding(seconds: seconds), coordinate: Geodesic.destination(from: Self.centre, azimuth: 0, distance: metres),
            horizontalAccuracy: 5)
    }

    @Test func aCyclistsFixesLengthenTheSleep() {
        var monitor = RegionMonitor(regions: [Region(identifier: "far", shape: .circle(center: Self.centre, radius: 100))])
        var settings = PowerSettings()
        settings.aware = true
        // The first fix, 1,100 m out (1,000 m to the edge): (1,000 − 5) ÷ 60 m/s, nothing learned.
        var sampler = GNSSSampler(settings: settings)
        let first = fix(metres: 1100, at: 0)
        _ = monitor.process(first)
        let plain = sampler.sleep(after: first, monitor: monitor, subscriptions: [], now: t0)
        #expect(abs((plain?.seconds(since: t0) ?? 0) - (995.0 / 60 - 1)) < 0.01)
        // Riding away at 5 m/s, a fix a second for 20 s, then asked again at 1,200 m.
        var learning = GNSSSampler(settings: settings)
        var resume: Timestamp?
        for second in 0...20 {
            let next = fix(metres: 1100 + 5 * Double(second), at: Double(second))
            _ = monitor.process(next)
            resume = learning.sleep(after: next, monitor: monitor, subscriptions: [], now: next.time!)
            if resume != nil && second < 20 {
                let woke = learning.wake(generation: learning.generation)
                #expect(woke)
            }
        }
        // 1,095 m from 9.5 m/s, rising at 2 m/s² to 60 m/s (25.25 s, 877.4 m) then at 60 m/s:
        // 28.88 s, less the hot start.
        let learned = resume?.seconds(since: t0.adding(seconds: 20)) ?? 0
        #expect(abs(learned - 27.88) < 0.05)
        #expect(learned > 1.5 * (1095.0 / 60 - 1))
    }
}
