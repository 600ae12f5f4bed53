import Foundation
import Testing
import WaymarkTestSupport

/// `waymark regions generate --along`: the power benchmark's seeded regions.
@Suite struct RegionsGenerateTests {
    private func generate(_ extra: [String]) async throws -> ProcessResult {
        try await runWaymark(["regions", "generate", "--along", "Tracks/lakeside-ride.gpx"] + extra)
    }

    @Test func theSameSeedGivesTheSameRegionsAndTheyReadBack() async throws {
        let first = try await generate(["--seed", "7"])
        let again = try await generate(["--seed", "7"])
        let other = try await generate(["--seed", "8"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == again.stdout)
        #expect(first.stdout != other.stdout)
        let collection = try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any]
        let features = try #require(collection?["features"] as? [[String: Any]])
        // The sample ride is about 14 km: 0.5 per km.
        #expect((6...8).contains(features.count))
        // Even-numbered regions are circles, odd ones star polygons.
        #expect((features[0]["geometry"] as? [String: Any])?["type"] as? String == "Point")
        #expect((features[1]["geometry"] as? [String: Any])?["type"] as? String == "Polygon")
        // The replay reads them and crosses some.
        let directory = try TemporaryDirectory()
        let regions = try directory.write("along.geojson", first.stdout)
        let replay = try await runWaymark(["replay", "Tracks/lakeside-ride.gpx", "--regions", regions, "--fast"])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdoutLines.contains { $0.hasPrefix("{\"kind\":\"region\"") })
    }

    @Test func badOptionsAndInputAreClearErrors() async throws {
        let density = try await generate(["--per-km", "0"])
        #expect(density.status == 64)
        #expect(density.stderr.contains("--per-km must be a positive number"))
        let radii = try await generate(["--min-radius", "300", "--max-radius", "100"])
        #expect(radii.status == 64)
        let directory = try TemporaryDirectory()
        let broken = try directory.write("broken.gpx", "<gpx version=\"1.1\"><trk><trkseg><trkpt lat=\"91\" lon=\"0\"/></trkseg></trk></gpx>")
        let bad = try await runWaymark(["regions", "generate", "--along", broken])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("broken.gpx:1:"), "\(bad.stderr)")
    }
}
