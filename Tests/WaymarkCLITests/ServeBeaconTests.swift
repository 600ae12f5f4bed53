import Foundation
import Testing
import WaymarkTestSupport

/// `waymark serve` with a beacon source: a replay file, or a Bluetooth adapter this machine may
/// not have.
@Suite struct ServeBeaconTests {
    static let regions = BeaconReplayTests.regions([
        ("post", BeaconReplayTests.trail, 1, 1), ("gate", BeaconReplayTests.trail, 2, nil),
    ])

    @Test func theDaemonRecordsWhatReplayPrintsAndResumesFromTheSavedState() async throws {
        let directory = try TemporaryDirectory()
        let db = directory.path("waymark.sqlite")
        let regionFile = try directory.write("beacons.geojson", Self.regions)
        // The post heard every second for 20 s, the gate once at 20.5 s.
        let first = try directory.write(
            "first.jsonl",
            (stride(from: 0.0, through: 20, by: 1).map { BeaconReplayTests.line($0) } + [BeaconReplayTests.line(20.5, major: 2)])
                .joined(separator: "\n"))
        func serve(_ beacons: String) async throws -> ProcessResult {
            try await runWaymark([
                "serve", "--beacons", beacons, "--exit-after-replay", "--regions", regionFile, "--db", db,
                "--socket", directory.path("api.sock"), "--gpsd", "127.0.0.1:9",
            ])
        }
        let served = try await serve(first)
        #expect(served.status == 0, "\(served.stderr)")
        let replayed = try await runWaymark(["replay", "--beacons", first, "--regions", regionFile, "--fast"])
        let expected = replayed.stdoutLines.filter { $0.hasPrefix("{\"kind\":\"beacon\"") }
        #expect(expected.count == 2)
        let history = try await runWaymark(["history", "--db", db, "--kind", "event"])
        #expect(history.stdoutLines.map { replayRecord($0) } == expected)
        let state = try await runWaymark(["regions", "state", "post", "--db", db])
        #expect(state.stdoutLines == [#"{"identifier":"post","state":"inside","since":"2026-06-01T08:00:00Z"}"#])

        // Restarted later with only the gate's beacon, at 100 s: the post exits 30 s after its
        // last saved sighting (20 s), the gate 30 s after its own (20.5 s), then enters again.
        let second = try directory.write("second.jsonl", BeaconReplayTests.line(100, major: 2))
        let servedAgain = try await serve(second)
        #expect(servedAgain.status == 0, "\(servedAgain.stderr)")
        let events = try await runWaymark(["history", "--db", db, "--kind", "event"]).stdoutLines.map { replayRecord($0) }
        #expect(events.count == 5, "\(events)")
        #expect(events[2] == #"{"kind":"beacon","transition":"exit","region":"post","time":"2026-06-01T08:00:50Z","lastSeen":"2026-06-01T08:00:20Z"}"#)
        #expect(events[3] == #"{"kind":"beacon","transition":"exit","region":"gate","time":"2026-06-01T08:00:50.5Z","lastSeen":"2026-06-01T08:00:20.5Z"}"#)
        #expect(events[4].hasPrefix(#"{"kind":"beacon","transition":"enter","region":"gate","time":"2026-06-01T08:01:40Z""#))
    }

    @Test func withoutAnAdapterTheBluetoothSourceSaysSoAndTheDaemonServesOn() async throws {
        guard !FileManager.default.fileExists(atPath: "/sys/class/bluetooth") else { return }
        let directory = try TemporaryDirectory()
        let socket = directory.path("api.sock")
        let daemon = try BackgroundProcess.waymark([
            "serve", "--bluetooth", "hci0", "--scan-interval", "0.2", "--scan-window", "0.05", "--db", directory.path("w.sqlite"),
            "--socket", socket, "--gpsd", "127.0.0.1:9",
        ])
        #expect(try await BackgroundProcess.waitUntil(timeout: 20) { unixSocketAccepts(path: socket) }, "\(daemon.stderr)")
        var beaconSource: [String: Any]?
        _ = try await BackgroundProcess.waitUntil(timeout: 10) {
            guard let status = try? await runWaymark(["status", "--socket", socket]), status.status == 0,
                let object = try? JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
            else { return false }
            beaconSource = object["beaconSource"] as? [String: Any]
            return beaconSource?["lastError"] is String
        }
        #expect(beaconSource?["kind"] as? String == "bluetooth")
        #expect(beaconSource?["scanning"] as? Bool == false)
        #expect(beaconSource?["lastError"] as? String == "no Bluetooth adapter: /sys/class/bluetooth does not exist (this kernel has no Bluetooth support loaded)")
        #expect(beaconSource?["dutyCycle"] as? Double == 0.25)
        daemon.send(SIGTERM)
        #expect(try await daemon.wait(timeout: 10) == 0, "\(daemon.stderr)")
        #expect(daemon.stderr.contains("Bluetooth beacon source unavailable"))
        // An adapter missing from the start is the state the daemon starts in: no adapterDown.
        let history = try await runWaymark(["history", "--kind", "event", "--db", directory.path("w.sqlite")])
        #expect(!history.stdout.contains("\"kind\":\"accessory\""), "\(history.stdout)")
    }

    @Test func beaconAndBluetoothFlagsAreCheckedBeforeServing() async throws {
        #expect(try await runWaymark(["serve", "--beacons", "a.jsonl", "--bluetooth", "hci0"]).status == 64)
        #expect(try await runWaymark(["serve", "--scan-window", "0.05"]).status == 64)
        let tooLong = try await runWaymark(["serve", "--bluetooth", "first", "--scan-interval", "0.1", "--scan-window", "0.2"])
        #expect(tooLong.status == 64)
        #expect(tooLong.stderr.contains("cannot be longer than the interval"))
    }
}
