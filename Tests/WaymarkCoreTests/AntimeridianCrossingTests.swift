import Testing
import WaymarkCore

@Suite struct AntimeridianCrossingTests {
    /// A step, and the meridian it leaves by with the fraction of the step there (nil: no
    /// crossing).
    struct Step: Sendable, CustomTestStringConvertible {
        var from: Double
        var to: Double
        var leaving: Double?
        var fraction: Double
        var testDescription: String { "\(from) → \(to)" }
    }

    @Test(arguments: [
        Step(from: 179.9, to: -179.9, leaving: 180, fraction: 0.5),
        Step(from: -179.9, to: 179.9, leaving: -180, fraction: 0.5),
        Step(from: 179.0, to: -179.5, leaving: 180, fraction: 1.0 / 1.5),
        // On the seam already: the cut is at the point itself, or at the next one.
        Step(from: 180, to: -179.9, leaving: 180, fraction: 0),
        Step(from: -180, to: 179.9, leaving: -180, fraction: 0),
        Step(from: -179.9, to: 180, leaving: -180, fraction: 1),
        // 180° apart or less is no crossing, whichever way is shorter.
        Step(from: 0, to: 180, leaving: nil, fraction: 0),
        Step(from: -90, to: 90, leaving: nil, fraction: 0),
        Step(from: 179.9, to: 179.95, leaving: nil, fraction: 0),
        Step(from: 180, to: 180, leaving: nil, fraction: 0),
    ])
    func aStepOverTheSeamLeavesByTheMeridianOnItsSide(step: Step) throws {
        let a = Coordinate(latitude: -17, longitude: step.from)
        let b = Coordinate(latitude: -18, longitude: step.to)
        let crossing = AntimeridianCrossing(from: a, to: b)
        guard let leaving = step.leaving else {
            #expect(crossing == nil)
            return
        }
        let found = try #require(crossing)
        #expect(found.leavingLongitude == leaving && found.enteringLongitude == -leaving)
        #expect(abs(found.fraction - step.fraction) < 1e-9)
        #expect(abs(found.latitude - (-17 - step.fraction)) < 1e-9)
        #expect(found.leaving == Coordinate(latitude: found.latitude, longitude: leaving))
        #expect(found.entering == Coordinate(latitude: found.latitude, longitude: -leaving))
    }

    /// Steps that end exactly on the seam: whatever the rounding, the fraction stays in 0…1, so
    /// splitting a step into 0…fraction and fraction…1 never makes an inverted range.
    @Test func theFractionStaysWithinTheStep() throws {
        var checked = 0
        for from in stride(from: -179.999_999, to: -150, by: 0.013_7) {
            for (a, b) in [(from, 180.0), (-from, -180.0), (180.0, from), (-180.0, -from)] {
                let crossing = try #require(AntimeridianCrossing(from: Coordinate(latitude: 10, longitude: a), to: Coordinate(latitude: 11, longitude: b)))
                #expect((0...1).contains(crossing.fraction), "\(a) → \(b): \(crossing.fraction)")
                checked += 1
            }
        }
        #expect(checked > 8000)
    }
}
