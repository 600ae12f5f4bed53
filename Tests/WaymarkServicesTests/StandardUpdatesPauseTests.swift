import Testing
import WaymarkCore
@testable import WaymarkServices

@Suite struct StandardUpdatesPauseTests {
    static let pausing = StandardUpdates.Configuration(pausesAutomatically: true)

    /// Pauses once the device has stayed within 25 m of one point for 180 s, not at 179 s;
    /// the fix that triggers the pause is not delivered.
    @Test(arguments: [
        (179.0, ["location 0", "location 60", "location 120", "location 179"]),
        (180, ["location 0", "location 60", "location 120", "paused 180"]),
        (181, ["location 0", "location 60", "location 120", "paused 181"]),
    ] as [(Double, [String])])
    func pausesAfterStayingStill(last: Double, expected: [String]) {
        let fixes = [
            StandardTrack.fix(0, at: 0), StandardTrack.fix(20, at: 60), StandardTrack.fix(-25, at: 120),
            StandardTrack.fix(10, at: last),
        ]
        #expect(StandardTrack.kinds(Self.pausing, fixes) == expected)
    }

    @Test func doesNotPauseUnlessAsked() {
        let fixes = (0...4).map { StandardTrack.fix(0, at: Double($0) * 60) }
        #expect(StandardTrack.kinds(.init(), fixes) == (0...4).map { "location \($0 * 60)" })
    }

    /// Leaving the radius starts the stationary stretch again from that fix.
    @Test func movingRestartsTheStationaryClock() {
        let fixes = [
            StandardTrack.fix(0, at: 0), StandardTrack.fix(30, at: 100), StandardTrack.fix(40, at: 200),
            StandardTrack.fix(35, at: 279), StandardTrack.fix(30, at: 280),
        ]
        #expect(
            StandardTrack.kinds(Self.pausing, fixes) == [
                "location 0", "location 100", "location 200", "location 279", "paused 280",
            ])
    }

    /// Nothing is delivered while paused until a fix is ≥ 50 m from the pause point; then
    /// `resumed` comes first and that fix is delivered.
    @Test(arguments: [
        (49.0, false), (50, true), (-50, true), (120, true),
    ])
    func resumesAfterMovingFarEnough(distance: Double, resumes: Bool) {
        let fixes = [
            StandardTrack.fix(0, at: 0), StandardTrack.fix(5, at: 180), StandardTrack.fix(30, at: 200),
            StandardTrack.fix(distance, at: 220), StandardTrack.fix(distance, at: 230),
        ]
        let expected = ["location 0", "paused 180"] + (resumes ? ["resumed 220", "location 220", "location 230"] : [])
        #expect(StandardTrack.kinds(Self.pausing, fixes) == expected)
    }

    /// docs/semantics.md §2.6: paused, a silence ended within 100 m of the last fix keeps the
    /// pause (a cold start's error is no movement); one ended farther away resumes.
    @Test(arguments: [
        (70.0, 500.0, false),  // a stay: still paused, and the fixes back at the place keep it
        (70, 290, true),  // no silence: 70 m is movement
        (130, 500, true),  // a gap
    ])
    func aSilenceTheDeviceStayedThroughKeepsThePause(metres: Double, at seconds: Double, resumes: Bool) {
        let fixes = [
            StandardTrack.fix(0, at: 0), StandardTrack.fix(5, at: 180), StandardTrack.fix(metres, at: seconds),
            StandardTrack.fix(3, at: seconds + 10),
        ]
        let expected = ["location 0", "paused 180"] + (resumes ? ["resumed \(Int(seconds))", "location \(Int(seconds))"] : [])
        #expect(StandardTrack.kinds(Self.pausing, fixes).prefix(expected.count) == expected[...])
        #expect(StandardTrack.kinds(Self.pausing, fixes).count == (resumes ? 5 : 2))
    }

    @Test func pausedRecordIsAtThePausePointWithTheTriggeringTime() throws {
        var service = StandardUpdates(configuration: Self.pausing)
        _ = service.process(StandardTrack.fix(0, at: 0))
        let records = service.process(StandardTrack.fix(20, at: 180))
        let paused = try #require(records.first)
        #expect(records.count == 1)
        #expect(paused.kind == .paused)
        #expect(paused.coordinate == StandardTrack.origin)
        #expect(paused.time == StandardTrack.start.adding(seconds: 180))
        #expect(service.isPaused)
    }

    /// Can pause again after resuming.
    @Test func pausesAgainAfterResuming() {
        let fixes = [
            StandardTrack.fix(0, at: 0), StandardTrack.fix(0, at: 180), StandardTrack.fix(100, at: 200),
            StandardTrack.fix(110, at: 300), StandardTrack.fix(100, at: 380),
        ]
        #expect(
            StandardTrack.kinds(Self.pausing, fixes) == [
                "location 0", "paused 180", "resumed 200", "location 200", "location 300", "paused 380",
            ])
    }
}
