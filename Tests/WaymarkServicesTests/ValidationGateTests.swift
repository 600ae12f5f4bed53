import Testing
import WaymarkCore
import WaymarkServices

@Suite("ValidationGate")
struct ValidationGateTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        var activity: ActivityType = .other
        var maximumHorizontalAccuracy: Double? = nil
        /// Admitted before the fix under test.
        let before: [Fix]
        let fix: Fix
        let expected: DropReason?
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "good fix", before: [], fix: fix(north: 0, at: 0, mode: .threeD), expected: nil),
        Case(name: "mode none", before: [], fix: fix(north: 0, at: 0, mode: FixMode.none), expected: .noFix),
        Case(
            name: "mode none beats missing time", before: [], fix: fix(north: 0, at: nil, mode: FixMode.none),
            expected: .noFix),
        Case(
            name: "NaN latitude", before: [],
            fix: Fix(time: startTime, coordinate: Coordinate(latitude: .nan, longitude: 0)),
            expected: .invalidCoordinate),
        Case(
            name: "infinite longitude", before: [],
            fix: Fix(time: startTime, coordinate: Coordinate(latitude: 0, longitude: .infinity)),
            expected: .invalidCoordinate),
        Case(
            name: "latitude 90.0001", before: [],
            fix: Fix(time: startTime, coordinate: Coordinate(latitude: 90.0001, longitude: 0)),
            expected: .invalidCoordinate),
        Case(
            name: "longitude -180.5 without time", before: [],
            fix: Fix(time: nil, coordinate: Coordinate(latitude: 0, longitude: -180.5)),
            expected: .invalidCoordinate),
        Case(name: "no time", before: [], fix: fix(north: 0, at: nil), expected: .noTime),
        Case(
            name: "time backwards", before: [fix(north: 0, at: 10)], fix: fix(north: 0, at: 9.999),
            expected: .timeBackwards),
        Case(
            name: "duplicate time", before: [fix(north: 0, at: 10)], fix: fix(north: 5, at: 10),
            expected: .duplicate),
        Case(
            name: "fitness at 15 m/s", activity: .fitness, before: [fix(north: 0, at: 0)],
            fix: fix(north: 150, at: 10), expected: nil),
        Case(
            name: "fitness just over 15 m/s", activity: .fitness, before: [fix(north: 0, at: 0)],
            fix: fix(north: 150.01, at: 10), expected: .impossibleJump),
        Case(
            name: "automotive at 90 m/s", activity: .automotive, before: [fix(north: 0, at: 0)],
            fix: fix(north: 900, at: 10), expected: nil),
        Case(
            name: "automotive just over 90 m/s", activity: .automotive, before: [fix(north: 0, at: 0)],
            fix: fix(north: 900.01, at: 10), expected: .impossibleJump),
        Case(
            name: "other at 60 m/s", before: [fix(north: 0, at: 0)], fix: fix(north: 600, at: 10), expected: nil),
        Case(
            name: "other just over 60 m/s", before: [fix(north: 0, at: 0)], fix: fix(north: 600.01, at: 10),
            expected: .impossibleJump),
        Case(
            name: "airborne at 350 m/s", activity: .airborne, before: [fix(north: 0, at: 0)],
            fix: fix(north: 350, at: 1), expected: nil),
        Case(
            name: "airborne just over 350 m/s", activity: .airborne, before: [fix(north: 0, at: 0)],
            fix: fix(north: 350.01, at: 1), expected: .impossibleJump),
        Case(
            name: "speed measured from the last admitted fix", activity: .fitness,
            before: [fix(north: 0, at: 0), fix(north: 100, at: 10)], fix: fix(north: 200, at: 20), expected: nil),
        Case(
            name: "accuracy at the bound", maximumHorizontalAccuracy: 10, before: [],
            fix: fix(north: 0, at: 0, horizontalAccuracy: 10), expected: nil),
        Case(
            name: "accuracy worse than desired", maximumHorizontalAccuracy: 10, before: [],
            fix: fix(north: 0, at: 0, horizontalAccuracy: 10.5), expected: .inaccurate),
        Case(
            name: "no accuracy reported", maximumHorizontalAccuracy: 10, before: [],
            fix: fix(north: 0, at: 0), expected: nil),
        Case(
            name: "jump beats inaccuracy", activity: .fitness, maximumHorizontalAccuracy: 10,
            before: [fix(north: 0, at: 0)], fix: fix(north: 1000, at: 1, horizontalAccuracy: 50),
            expected: .impossibleJump),
    ]

    @Test(arguments: cases)
    func rule(_ c: Case) {
        var gate = ValidationGate(activityType: c.activity, maximumHorizontalAccuracy: c.maximumHorizontalAccuracy)
        for earlier in c.before { #expect(gate.admit(earlier) == nil) }
        #expect(gate.admit(c.fix) == c.expected)
        #expect(gate.accepted == c.before.count + (c.expected == nil ? 1 : 0))
        if let reason = c.expected { #expect(gate.dropped == [reason: 1]) } else { #expect(gate.dropped.isEmpty) }
    }

    @Test func droppedFixDoesNotBecomeThePrevious() {
        var gate = ValidationGate(activityType: .fitness)
        #expect(gate.admit(fix(north: 0, at: 0)) == nil)
        #expect(gate.admit(fix(north: 5000, at: 10)) == .impossibleJump)
        // 100 m in 10 s from the first fix: fine; from the dropped one it would be a jump.
        #expect(gate.admit(fix(north: 100, at: 20)) == nil)
        #expect(gate.admit(fix(north: 100, at: 15)) == .timeBackwards)
        #expect(gate.admit(fix(north: 100, at: 20)) == .duplicate)
        #expect(gate.accepted == 2)
        #expect(gate.dropped == [.impossibleJump: 1, .timeBackwards: 1, .duplicate: 1])
    }

    @Test func speedBoundIsConfigurable() {
        var gate = ValidationGate(activityType: .airborne, maximumSpeed: 5)
        #expect(gate.maximumSpeed == 5)
        #expect(gate.admit(fix(north: 0, at: 0)) == nil)
        #expect(gate.admit(fix(north: 60, at: 10)) == .impossibleJump)
    }
}
