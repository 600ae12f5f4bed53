import Foundation
import Testing
import WaymarkTestSupport

/// `waymark replay` prints the device's place changes (docs/semantics.md §3.7) between the region
/// transitions that cause them.
@Suite struct PlaceReplayTests {
    /// The sample ride: it starts at the trailhead, passes through the forest, which lies inside
    /// the reserve, and ends back at the trailhead. Each place record names the place before it
    /// and follows the transition that moved it, with that transition's time and confirmation.
    @Test func theSampleRidesPlacesFollowItsTransitions() async throws {
        let result = try await runWaymark(["replay", "Tracks/lakeside-ride.gpx", "--regions", "Regions", "--fast"])
        #expect(result.status == 0, "\(result.stderr)")
        let records = try ReplayCommandTests.records(result).filter { ["state", "region", "place"].contains($0["kind"] as? String) }
        let places = records.filter { $0["kind"] as? String == "place" }
        #expect(places.first?["place"] as? String == "trailhead" && places.first?["previous"] is NSNull, "\(places.first ?? [:])")
        #expect(places.last?["place"] as? String == "trailhead")
        var current: String?
        for (index, record) in records.enumerated() where record["kind"] as? String == "place" {
            #expect((record["previous"] as? String) == current, "\(record)")
            current = record["place"] as? String
            guard index > 0 else { Issue.record("a place before the state"); continue }
            let before = records[index - 1]
            if before["kind"] as? String == "region" {
                #expect(before["time"] as? String == record["time"] as? String && before["confirmedAt"] as? String == record["confirmedAt"] as? String)
            } else {
                #expect(before["kind"] as? String == "state" && record["confirmedAt"] == nil, "\(before)")
            }
        }
        let moves = zip(places, places.dropFirst()).map { "\($0["place"] as? String ?? "-")→\($1["place"] as? String ?? "-")" }
        #expect(moves.contains("reserve→forest") && moves.contains("forest→reserve"), "the forest, smaller, outranks the reserve: \(moves)")
    }
}
