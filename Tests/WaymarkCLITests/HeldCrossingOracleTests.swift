import Foundation
import Testing
import WaymarkTestSupport

/// Nothing held half a minute is missed (issue 19, docs/semantics.md §3.3): over every shared GPX
/// track, with circles generated along it (half crossed, half near misses), every crossing whose
/// new side holds 30 s and gets beyond the cushion — min(200 m, radius ÷ 4) — is reported by
/// `waymark replay`, and every reported one is supported by the raw memberships, as an
/// independent oracle computes them (`Tests/Oracles/held_crossings.py`: gpxpy and
/// geographiclib, nothing of Waymark's).
@Suite struct HeldCrossingOracleTests {
    /// Runs the oracle on a track, its regions and a replay's records.
    private func check(_ track: String, _ regions: String, _ records: String) async throws -> ProcessResult {
        let oracle = ProjectPaths.repositoryRoot.appendingPathComponent("Tests/Oracles/held_crossings.py").path
        return try await runProcess(URL(fileURLWithPath: "/usr/bin/python3"), [oracle, track, regions, records])
    }

    @Test(arguments: [1, 2, 3])
    func everyHeldCrossingOfEveryTrackIsReported(seed: Int) async throws {
        let directory = try TemporaryDirectory()
        var expected = 0
        for track in try ProjectPaths.sharedGPXFiles() {
            let name = track.deletingPathExtension().lastPathComponent
            let regions = directory.url.appendingPathComponent("\(name)-\(seed).geojson").path
            let generated = try await runWaymark([
                "regions", "generate", "--along", track.path, "--seed", "\(seed)", "--per-km", "2", "-o", regions,
            ])
            try #require(generated.status == 0, "\(generated.stderr)")
            let replay = try await runWaymark(["replay", track.path, "--regions", regions, "--fast"])
            try #require(replay.status == 0, "\(name): \(replay.stderr)")
            let records = try directory.write("\(name)-\(seed).jsonl", replay.stdout)
            let checked = try await check(track.path, regions, records)
            #expect(checked.status == 0, "\(name), seed \(seed): \(checked.stdout) \(checked.stderr)")
            let summary = try JSONSerialization.jsonObject(with: Data(checked.stdout.utf8)) as? [String: Any]
            expected += summary?["expected"] as? Int ?? 0
        }
        // The timed tracks cross dozens of their circles for 30 s or more.
        #expect(expected > 50, "only \(expected) held crossings: the oracle is not looking")
    }

    /// The oracle is not a rubber stamp: a replay that reports nothing for the circles, or
    /// reports a transition the memberships do not support, fails it.
    @Test func theOracleCatchesAMissingAndAnInventedTransition() async throws {
        let directory = try TemporaryDirectory()
        let track = ProjectPaths.sharedData("gpx/tcxtest.gpx").path
        let regions = directory.url.appendingPathComponent("tcxtest.geojson").path
        _ = try await runWaymark(["regions", "generate", "--along", track, "--seed", "1", "--per-km", "2", "-o", regions])
        let replay = try await runWaymark(["replay", track, "--regions", regions, "--fast"])
        let lines = replay.stdoutLines
        let entry = try #require(lines.firstIndex { $0.contains("\"kind\":\"region\"") && $0.contains("\"transition\":\"enter\"") })
        // Circles are the even-numbered regions of `regions generate`.
        let withoutCircles = lines.filter { line in
            !(line.contains("\"kind\":\"region\"") && ["0\"", "2\"", "4\"", "6\"", "8\""].contains { line.contains($0 + ",\"time\"") })
        }
        let missing = try directory.write("missing.jsonl", withoutCircles.joined(separator: "\n") + "\n")
        let first = try await check(track, regions, missing)
        #expect(first.status == 1 && first.stdout.contains("\"missed\": [\""), "\(first.stdout)")

        let invented = lines[entry].replacingOccurrences(of: "\"transition\":\"enter\"", with: "\"transition\":\"exit\"")
        let extra = try directory.write("extra.jsonl", (lines + [invented]).joined(separator: "\n") + "\n")
        let second = try await check(track, regions, extra)
        #expect(second.status == 1 && second.stdout.contains("\"unsupported\": [\""), "\(second.stdout)")
    }
}
