import Foundation
import Testing
import WaymarkTestSupport

/// `waymark replay --energy` and `--power-aware` (docs/semantics.md §4) on the project's sample ride.
@Suite struct PowerAwareReplayTests {
    private func replay(_ flags: [String]) async throws -> (transitions: [String], summary: [String: Any]) {
        let result = try await runWaymark(["replay", "Tracks/lakeside-ride.gpx", "--regions", "Regions", "--fast", "--activity", "fitness"] + flags)
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try JSONSerialization.jsonObject(with: Data(result.stdoutLines.last!.utf8)) as? [String: Any] ?? [:]
        return (result.stdoutLines.filter { $0.hasPrefix("{\"kind\":\"region\"") }, summary)
    }

    @Test func continuousEnergyIsTrackingTimeTimesDrawPlusAHotStart() async throws {
        let (_, summary) = try await replay(["--energy"])
        #expect(summary["gnssMode"] as? String == "continuous")
        #expect(summary["powerProfile"] as? String == "ublox-m8-usb")
        #expect(summary["durationSeconds"] as? Double == 2973)
        #expect(summary["gpsOnSeconds"] as? Double == 2974)
        // 1 s acquiring at 25 mA and 2973 s tracking at 22 mA, at 3.0 V.
        let joules = try #require((summary["energyJoules"] as? [String: Double])?["gnss"])
        #expect(abs(joules - (1 * 0.025 * 3 + 2973 * 0.022 * 3)) < 0.001)
    }

    @Test func powerAwareFindsEveryTransitionContinuousTrackingDoesAtLessGPSTime() async throws {
        let (continuous, full) = try await replay(["--energy"])
        let (aware, summary) = try await replay(["--power-aware"])
        #expect(aware == continuous)  // same regions, directions, crossing and confirmation times
        #expect(continuous.count == 14)
        let onAware = try #require(summary["gpsOnSeconds"] as? Double)
        let onFull = try #require(full["gpsOnSeconds"] as? Double)
        #expect(onAware < 0.6 * onFull)
        #expect((summary["unseenFixes"] as? Int ?? 0) > 1000)
        let joules = { (s: [String: Any]) in (s["energyJoules"] as? [String: Double])?["gnss"] ?? 0 }
        #expect(joules(summary) < 0.6 * joules(full))
    }

    @Test func powerAwareRefusesStandardUpdatesAndBadProfiles() async throws {
        let standard = try await runWaymark(["replay", "Tracks/lakeside-ride.gpx", "--power-aware", "--standard"])
        #expect(standard.status == 64)
        #expect(standard.stderr.contains("--power-aware lets the GNSS sleep"))
        let directory = try TemporaryDirectory()
        let bad = try directory.write("bad.yaml", "name: x\nradio: gnss\nstates:\n  off: { current_ma: 0, voltage: 3, source: s }\n")
        let missing = try await runWaymark(["replay", "Tracks/lakeside-ride.gpx", "--power-aware", "--power-profile", bad])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("bad.yaml:4:3: states.acquiring: missing"), "\(missing.stderr)")
        let bluetooth = try await runWaymark([
            "replay", "Tracks/lakeside-ride.gpx", "--power-aware", "--power-profile", "Profiles/power/ble-adapter.yaml",
        ])
        #expect(bluetooth.status == 64)
        #expect(bluetooth.stderr.contains("describes a bluetooth radio, not gnss"))
    }

    /// Issue 43: a track the sampling rule was not tuned on (the held-out ride of
    /// Benchmarks/power.py), 0.5 regions per km along it, replayed with the default activity
    /// (`other`, 60 m/s, what the daemon assumes too). With the activity's maximum as the speed
    /// bound the receiver was on for 37.6 % of the active time; with the bound learned from the
    /// ride's own recent motion (`RecentMotion`) it must be under the 20 % target, and report
    /// every transition continuous tracking reports, at the same moments.
    @Test func aHeldOutRideAtHalfARegionPerKilometreMeetsTheTargetWithNothingMissed() async throws {
        let directory = try TemporaryDirectory()
        let track = ProjectPaths.sharedData("gpx/bikeride.gpx").path
        let regions = directory.path("along.geojson")
        let generated = try await runWaymark(["regions", "generate", "--along", track, "--seed", "2", "--per-km", "0.5", "-o", regions])
        #expect(generated.status == 0, "\(generated.stderr)")
        func run(_ mode: String) async throws -> (transitions: [String], summary: [String: Any]) {
            let result = try await runWaymark(["replay", track, "--regions", regions, "--fast", mode])
            #expect(result.status == 0, "\(result.stderr)")
            let summary = try JSONSerialization.jsonObject(with: Data(result.stdoutLines.last!.utf8)) as? [String: Any] ?? [:]
            return (result.stdoutLines.filter { $0.hasPrefix("{\"kind\":\"region\"") }, summary)
        }
        let (continuous, _) = try await run("--energy")
        let (aware, summary) = try await run("--power-aware")
        #expect(continuous.count == 68)
        #expect(aware == continuous)
        let on = try #require(summary["gpsOnSeconds"] as? Double)
        let active = try #require(summary["durationSeconds"] as? Double) - (summary["silentSeconds"] as? Double ?? 0)
        #expect(on / active <= 0.20, "GPS on \(on) s of \(active) s active")
    }

    /// A silence over five minutes is a pause: off in both modes, and reported.
    @Test func aLongSilenceIsAPauseInBothModes() async throws {
        let directory = try TemporaryDirectory()
        let points = [0, 1, 2, 602, 603].map { second in
            "<trkpt lat=\"47.0\" lon=\"8.0\"><time>2026-06-01T10:\(String(format: "%02d:%02d", second / 60, second % 60))Z</time></trkpt>"
        }
        let track = try directory.write(
            "paused.gpx",
            "<gpx version=\"1.1\" creator=\"t\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>"
                + points.joined() + "</trkseg></trk></gpx>")
        for mode in ["--energy", "--power-aware"] {
            let result = try await runWaymark(["replay", track, "--fast", mode])
            #expect(result.status == 0, "\(result.stderr)")
            let summary = try JSONSerialization.jsonObject(with: Data(result.stdoutLines.last!.utf8)) as? [String: Any] ?? [:]
            #expect(summary["silentSeconds"] as? Double == 600, "\(mode)")
            #expect(summary["durationSeconds"] as? Double == 603)
            // Two sessions of 2 s and 1 s tracking, each after a 1 s hot start.
            if mode == "--energy" { #expect(summary["gpsOnSeconds"] as? Double == 5) }
        }
    }
}
