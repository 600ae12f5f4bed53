import Foundation
import Testing
import WaymarkTestSupport

/// Issue 43 end to end: `waymark simulate phone` plays a recorded or made track as the OwnTracks
/// app would against a real daemon, obeying (or ignoring) the commands the daemon sends it, over
/// HTTP and through a real mosquitto. The daemon's own records (`waymark history`, `devices
/// list`, /v1/status, `waymark power`) are what is checked, beside the simulator's summary.
@Suite struct PhoneSteeringEndToEndTests {
    typealias Rig = PhoneSimulatorRig

    static func moveSeconds(_ summary: [String: Any]) -> Double {
        Rig.number(summary, "secondsPerMode.move") ?? 0
    }

    /// One run of the sample ride against a fresh daemon: the simulator's summary, the region
    /// events the daemon recorded and its energy estimate for the phone.
    static func ride(
        regions: String, policy: String, mode: String, mqtt: Bool = false, _ extra: [String] = []
    ) async throws -> (summary: [String: Any], crossings: [Rig.Crossing], energy: String) {
        try await Rig.with(regions: regions, policy: policy, mqtt: mqtt) { rig in
            // Move mode as fine as the policy's (a report every 10 s or 20 m), not the app's
            // default 300 s / 100 m, so always-move is the precise reference.
            let summary = try await rig.simulate(PhoneTestData.ride, mode: mode, ["--locator-interval", "10", "--locator-displacement", "20"] + extra)
            return (summary, try await rig.crossings(), try await rig.phoneEnergy())
        }
    }

    /// The joules `waymark power --device phone --json` reports in all.
    static func joules(_ report: String) throws -> Double {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any], "\(report)")
        return try #require(Rig.number(object, "totalJoules"), "\(report)")
    }

    /// The sample ride past six regions (three circles, one under 100 m, and three polygons),
    /// among them a stop of several minutes beside a polygon before riding into it: the phone
    /// parked there goes back to significant mode and must still not miss that crossing.
    @Test func thePolicyKeepsThePhoneInMoveModeLessAndLosesNoCrossing() async throws {
        let directory = try TemporaryDirectory()
        let regions = try await PhoneTestData.regions(along: PhoneTestData.ride, in: directory, name: "along.geojson", ["--per-km", "0.5", "--seed", "3"])
        let steered = try await Self.ride(regions: regions, policy: "auto", mode: "significant")
        let move = try await Self.ride(regions: regions, policy: "off", mode: "move")
        let (steeredMove, alwaysMove) = (Self.moveSeconds(steered.summary), Self.moveSeconds(move.summary))
        #expect(alwaysMove > 2_000, "the always-move phone's summary: \(move.summary)")
        #expect(steeredMove < alwaysMove * 0.5, "move mode \(steeredMove) s with the policy against \(alwaysMove) s: \(steered.summary)")
        #expect(!move.crossings.isEmpty, "the ride crosses none of its regions: \(regions)")
        let found = Rig.matched(move.crossings, in: steered.crossings)
        #expect(found == move.crossings, "always-move: \(move.crossings)\npolicy: \(steered.crossings)")
    }

    @Test func thePhoneSpendsLessEnergyWithThePolicyThanInMoveMode() async throws {
        let directory = try TemporaryDirectory()
        let regions = try await PhoneTestData.regions(along: PhoneTestData.ride, in: directory, name: "along.geojson", ["--per-km", "0.5", "--seed", "3"])
        let steered = try await Self.ride(regions: regions, policy: "auto", mode: "significant")
        let move = try await Self.ride(regions: regions, policy: "off", mode: "move")
        // The simulator's estimate, on the track's own time.
        let (simulatedSteered, simulatedMove) = (
            Rig.number(steered.summary, "energy.joulesPerHour") ?? .infinity, Rig.number(move.summary, "energy.joulesPerHour") ?? 0
        )
        #expect(simulatedSteered < simulatedMove * 0.75, "\(steered.summary)\n\(move.summary)")
        // The daemon's estimate (`waymark power --device`) heard every report, in both modes.
        let daemonSteered = try #require(try JSONSerialization.jsonObject(with: Data(steered.energy.utf8)) as? [String: Any])
        let daemonMove = try #require(try JSONSerialization.jsonObject(with: Data(move.energy.utf8)) as? [String: Any])
        #expect((Rig.number(daemonSteered, "reports") ?? 0) >= (Rig.number(steered.summary, "reports") ?? .infinity), "\(steered.energy)")
        #expect((Rig.number(daemonSteered, "significantSeconds") ?? 0) > 0 && (Rig.number(daemonMove, "moveSeconds") ?? 0) > 0)
        #expect(Rig.number(daemonMove, "significantSeconds") == 0, "\(move.energy)")
        // And priced the policy lower than always-move.
        let (steeredJoules, moveJoules) = (try Self.joules(steered.energy), try Self.joules(move.energy))
        #expect(steeredJoules < moveJoules, "policy: \(steered.energy)\nalways-move: \(move.energy)")
    }

    @Test func aPhoneAmongTenThousandRegionsHoldsTwentyAndMissesNone() async throws {
        let directory = try TemporaryDirectory()
        let along = try await PhoneTestData.regions(along: PhoneTestData.ride, in: directory, name: "along.geojson", ["--per-km", "0.5", "--seed", "3"])
        let regions = try PhoneTestData.crowd(along: along, count: 10_000, in: directory)
        let steered = try await Self.ride(regions: regions, policy: "auto", mode: "significant", ["--truth-regions", regions])
        let held = Rig.number(steered.summary, "maxWaypointsHeld") ?? 0
        #expect(held > 0 && held <= 20, "\(steered.summary)")
        #expect((Rig.number(steered.summary, "regionEntries") ?? 0) > 10, "the ride enters few regions: \(steered.summary)")
        #expect(Rig.number(steered.summary, "windowMisses") == 0, "\(steered.summary)")
        #expect(!steered.crossings.isEmpty)
    }

    @Test func aStillNoisyPhoneInsideAPolygonIsNotFlappedBetweenModes() async throws {
        let directory = try TemporaryDirectory()
        let track = try directory.write("parked.gpx", PhoneTestData.parkedHour())
        let regions = try directory.write("yard.geojson", PhoneTestData.yard)
        try await Rig.with(regions: regions, policy: "auto") { rig in
            let summary = try await rig.simulate(track, mode: "significant")
            let switches = Rig.number(summary, "modeSwitches") ?? .infinity
            #expect(switches <= 2, "\(summary)")
            #expect(Self.moveSeconds(summary) <= 30 * 60, "a parked phone kept in move mode: \(summary)")
            #expect(try await rig.fixCount() > 0)
        }
    }

    @Test func aPhoneIgnoringCommandsIsReportedAndStillTracked() async throws {
        let directory = try TemporaryDirectory()
        let regions = try await PhoneTestData.regions(along: PhoneTestData.ride, in: directory, name: "along.geojson", ["--per-km", "0.2", "--seed", "3"])
        try await Rig.with(regions: regions, policy: "auto") { rig in
            // In move mode all along (a report every 100 m), far from most regions: the policy
            // asks for significant mode again and again, and the phone never obeys.
            let summary = try await rig.simulate(PhoneTestData.ride, mode: "move", ["--ignore-commands"])
            #expect(Rig.number(summary, "modeSwitches") == 0, "\(summary)")
            #expect((Rig.number(summary, "commands.ignored") ?? 0) > 0, "\(summary)")
            let reports = try #require(Rig.number(summary, "reports"))
            #expect(Double(try await rig.fixCount()) == reports, "every report recorded: \(summary)")
            let list = try await rig.devicesList()
            #expect(list.lowercased().contains("ignor"), "devices list: \(list)")
            let status = try await rig.status()
            #expect(status.lowercased().contains("ignor"), "status: \(status)")
        }
    }

    @Test func overMQTTThePolicyWorksTheSame() async throws {
        let directory = try TemporaryDirectory()
        let regions = try await PhoneTestData.regions(along: PhoneTestData.ride, in: directory, name: "along.geojson", ["--per-km", "0.5", "--seed", "3"])
        let steered = try await Self.ride(regions: regions, policy: "auto", mode: "significant", mqtt: true)
        let move = try await Self.ride(regions: regions, policy: "off", mode: "move")
        #expect((Rig.number(steered.summary, "commands.received") ?? 0) > 0, "\(steered.summary)")
        #expect((Rig.number(steered.summary, "modeSwitches") ?? 0) >= 1, "\(steered.summary)")
        #expect(Self.moveSeconds(steered.summary) < Self.moveSeconds(move.summary) * 0.5, "\(steered.summary)\n\(move.summary)")
        #expect(!move.crossings.isEmpty)
        #expect(Rig.matched(move.crossings, in: steered.crossings) == move.crossings, "always-move: \(move.crossings)\nMQTT policy: \(steered.crossings)")
    }
}
