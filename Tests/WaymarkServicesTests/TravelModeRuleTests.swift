import Testing
import WaymarkServices

/// `TravelModeRule` at and around each of its thresholds (docs/timeline.md, "Travel mode").
@Suite("TravelModeRule")
struct TravelModeRuleTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let profile: SpeedProfile
        let mode: TravelMode
        var testDescription: String { name }
    }

    /// A trip of an hour, 55 minutes of it moving, at these speeds (m/s), `distance` metres long.
    static func moving(median: Double, high: Double, distance: Double = 5_000) -> SpeedProfile {
        SpeedProfile(distance: distance, duration: 3600, movingTime: 3300, medianSpeed: median, highSpeed: high)
    }

    static let cases: [Case] = [
        Case(name: "under 100 m is unknown", profile: moving(median: 1.3, high: 1.6, distance: 99), mode: .unknown),
        Case(name: "100 m is judged", profile: moving(median: 1.3, high: 1.6, distance: 100), mode: .walking),
        Case(
            name: "under a minute of movement is unknown",
            profile: SpeedProfile(distance: 500, duration: 600, movingTime: 59, medianSpeed: 1.3, highSpeed: 1.6), mode: .unknown),
        Case(name: "a stroll", profile: moving(median: 0.9, high: 1.7), mode: .walking),
        Case(name: "just under a run", profile: moving(median: 2.19, high: 3), mode: .walking),
        Case(name: "a run", profile: moving(median: 2.2, high: 3.5), mode: .running),
        Case(name: "a fast run", profile: moving(median: 3.59, high: 5.9), mode: .running),
        Case(name: "a climb on a bicycle", profile: moving(median: 3, high: 6), mode: .cycling),
        Case(name: "a ride", profile: moving(median: 5, high: 9), mode: .cycling),
        Case(name: "a fast road ride", profile: moving(median: 8.7, high: 14.9), mode: .cycling),
        Case(name: "driving in town", profile: moving(median: 11, high: 15), mode: .driving),
        Case(name: "a country road", profile: moving(median: 18, high: 24), mode: .driving),
        Case(name: "a motorway", profile: moving(median: 33, high: 49.9, distance: 100_000), mode: .driving),
        Case(name: "a fast train", profile: moving(median: 60, high: 80, distance: 150_000), mode: .train),
        Case(name: "faster than any train", profile: moving(median: 200, high: 240, distance: 800_000), mode: .flight),
        Case(
            name: "a flight behind the 60 m/s gate: a long silence at the bound",
            profile: SpeedProfile(distance: 500_000, duration: 8400, movingTime: 0, medianSpeed: 0, highSpeed: 0, gapSpeed: 59.5, gapDistance: 500_000),
            mode: .flight),
        Case(
            name: "fixes only across a silence, at a cyclist's speed",
            profile: SpeedProfile(distance: 3000, duration: 400, movingTime: 0, medianSpeed: 0, highSpeed: 0, gapSpeed: 7.5, gapDistance: 3000),
            mode: .cycling),
        Case(
            name: "a long silence slower than a flight",
            profile: SpeedProfile(distance: 200_000, duration: 7200, movingTime: 0, medianSpeed: 0, highSpeed: 0, gapSpeed: 27.8, gapDistance: 200_000),
            mode: .driving),
        Case(
            name: "door to door faster than a train",
            profile: SpeedProfile(distance: 300_000, duration: 4000, movingTime: 1000, medianSpeed: 20, highSpeed: 40), mode: .flight),
    ]

    @Test(arguments: cases)
    func rule(_ c: Case) {
        #expect(TravelModeRule.judge(c.profile) == c.mode)
    }
}
