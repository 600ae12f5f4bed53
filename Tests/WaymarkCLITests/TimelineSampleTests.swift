import Foundation
import Testing
import WaymarkTestSupport

/// Issue 41's figure on the project's own labelled sample (Tracks/README.md, BENCHMARKS.md
/// "Timeline against labels"): the three days imported with their labels, `--compare` gives
/// stays F1 ≥ 0.9 and median arrival and departure errors ≤ 3 min.
@Suite struct TimelineSampleTests {
    @Test func theThreeDaysMeetTheFigure() async throws {
        let directory = try TemporaryDirectory()
        let db = directory.path("s.sqlite")
        for file in ["Tracks/three-days.gpx", "Tracks/three-days.labels.json"] {
            let imported = try await runWaymark(["import", file, "--device", "sample", "--db", db])
            try #require(imported.status == 0, "\(file): \(imported.stderr)")
        }
        let compared = try await runWaymark([
            "timeline", "--device", "sample", "--from", "2026-05-31T22:00:00Z", "--to", "2026-06-03T22:00:00Z", "--compare", "--json", "--db", db,
        ])
        try #require(compared.status == 0, "\(compared.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(compared.stdout.utf8)) as? [String: Any])
        #expect(object["reported"] as? Int == 13)
        #expect((object["f1"] as? Double ?? 0) >= 0.9, "\(compared.stdout)")
        #expect((object["medianArrivalError"] as? Double ?? .infinity) <= 180, "\(compared.stdout)")
        #expect((object["medianDepartureError"] as? Double ?? .infinity) <= 180, "\(compared.stdout)")
        let missed = try #require(object["unmatchedReported"] as? [[String: Any]])
        #expect(missed.isEmpty, "every labelled stay found: \(missed)")
    }
}
