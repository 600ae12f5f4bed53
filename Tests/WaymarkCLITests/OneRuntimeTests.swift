import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

/// One runtime, two entry points (docs/architecture.md): the same recorded track, sent as an
/// OwnTracks phone to a single daemon and to a fleet (one ingest node, two workers, one output
/// node), then two sightings of a beacon at the trailhead, is recorded as the same events — same
/// kinds, times and fields, byte for byte, beacon entry and exit included — and reaches a webhook
/// with the same CloudEvents ids; `waymark replay` of the track prints the same records (less the
/// initial `state`, which neither runtime records: docs/semantics.md §5).
@Suite(.serialized) struct OneRuntimeTests {
    static let device = "bike.1"
    static let shed = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"
    /// A beacon region beside the sample regions, in both runtimes' stores.
    static let beaconRegion = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","id":"shed","geometry":null,"properties":{"beacon":{"uuid":"\(shed)","major":2},"exitTimeout":30}}]}
        """

    /// After the ride (it ends before 08:50 on 2026-06-01): the shed's beacon seen twice, then a
    /// location at the trailhead five minutes later, whose time passes the exit timeout.
    static func beaconBody() throws -> String {
        let after = try #require(Timestamp(rfc3339: "2026-06-01T09:00:00Z")).nanosecondsSince1970 / 1_000_000_000
        let beacon = { (at: Int64) in #"{"_type":"beacon","uuid":"\#(shed)","major":2,"minor":7,"tst":\#(at),"rssi":-70,"prox":2}"# }
        let location = #"{"_type":"location","lat":47.3542545,"lon":8.6704641,"tst":\#(after + 300),"tid":"wm"}"#
        return "[" + [beacon(after), beacon(after + 10), location].joined(separator: ",") + "]"
    }

    /// Sends the beacon body as `device` to a listener (the daemon's, or a fleet's ingest node).
    static func sendBeacons(port: Int, secret: String) async throws {
        let token = Data("\(device):\(secret)".utf8).base64EncodedString()
        let sent = try await runProcess(
            URL(fileURLWithPath: "/usr/bin/curl"),
            ["--silent", "--show-error", "--fail-with-body", "-X", "POST", "-H", "Content-Type: application/json", "-H", "Authorization: Basic \(token)",
             "-H", "X-Limit-U: \(device)", "-H", "X-Limit-D: \(device)", "--data", try beaconBody(), "http://127.0.0.1:\(port)/v1/owntracks"])
        try #require(sent.status == 0, "\(sent.stdout)\(sent.stderr)")
    }

    /// What one runtime made of the track for `device`: its stored event records in commit
    /// order, and the CloudEvents ids its webhook received, in the order they first arrived.
    struct Outcome: Equatable {
        var records: [String]
        var ids: [String]
    }

    @Test func aPhoneFedToASingleDaemonAndToAFleetGivesTheSameEventsAndIDsAsReplay() async throws {
        let single = try await Self.singleDaemon()
        #expect(single.records.count > 10, "\(single.records)")
        #expect(single.records.contains { $0.contains(#""kind":"place""#) }, "place changes are recorded too")
        let beacons = single.records.filter { $0.contains(#""kind":"beacon""#) }
        #expect(beacons.count == 2 && beacons.first?.contains(#""transition":"enter""#) == true, "\(beacons)")

        let replay = try await runWaymark(["replay", FleetTests.track, "--regions", FleetTests.regions])
        try #require(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdoutLines.first?.contains(#""kind":"state""#) == true, "replay prints the initial state")
        let printed = replay.stdoutLines.filter { !$0.contains(#""kind":"state""#) && !$0.contains(#""kind":"summary""#) }
        #expect(printed == single.records.filter { !$0.contains(#""kind":"beacon""#) }, "replay and the single daemon disagree")

        let fleet = try await Self.fleet()
        #expect(fleet.records == single.records, "the fleet recorded other events than the single daemon")
        #expect(fleet.ids == single.ids, "the fleet's webhook ids differ from the single daemon's")
        // An output's default filter is region and beacon transitions (docs/outputs.md).
        #expect(single.ids.count == single.records.filter(Self.isTransition).count, "every transition reached the webhook once")
    }

    /// A single daemon with the fleet rig's regions, `device` and a webhook output; the feeder
    /// sends the track as the phone, then the daemon is stopped.
    static func singleDaemon() async throws -> Outcome {
        let directory = try TemporaryDirectory()
        let db = directory.path("w.sqlite")
        try #require(try await runWaymark(["regions", "import", FleetTests.regions, "--db", db]).status == 0)
        try await Self.importBeaconRegion(db: db, directory: directory)
        let added = try await runWaymark(["devices", "add", device, "--db", db])
        let secret = try #require(DevicesCommandTests.secret(in: added.stdout), "\(added.stderr)")
        let (webhookPort, port) = (try freeLoopbackPort(), try freeLoopbackPort())
        let hookSecret = try await Self.addWebhook(db: db, port: webhookPort)
        let webhookLog = directory.path("webhook.jsonl")
        let receiver = try WebhookOutputTests.receiver(port: webhookPort, secret: hookSecret, log: webhookLog)
        return try await receiver.whileRunning {
            try await WebhookOutputTests.waitForReceiver(receiver, port: webhookPort)
            let daemon = try BackgroundProcess(
                ProjectPaths.waymarkExecutable,
                ["serve", "--gpsd", "127.0.0.1:9", "--db", db, "--socket", directory.path("api.sock"), "--listen", "127.0.0.1:\(port)"],
                currentDirectory: ProjectPaths.repositoryRoot)
            return try await daemon.whileRunning {
                let listening = try await BackgroundProcess.waitUntil(timeout: 30) { loopbackAccepts(port: port) }
                try #require(listening, "the device listener never opened: \(daemon.stderr.suffix(2000))")
                let fed = try await runProcess(
                    URL(fileURLWithPath: "/usr/bin/python3"), [FleetTests.feeder, "http://127.0.0.1:\(port)", FleetTests.track, "\(device):\(secret)"])
                try #require(fed.status == 0, "feeder: \(fed.stdout)\(fed.stderr)")
                try await sendBeacons(port: port, secret: secret)
                // Every 200 means recorded; the webhook then has every stored event.
                let records = try await storedRecords(db)
                let transitions = records.filter(isTransition).count
                _ = try await BackgroundProcess.waitUntil(timeout: 60) { WebhookOutputTests.delivered(webhookLog).count >= transitions }
                let ids = FleetOutputTests.firstArrivals(WebhookOutputTests.delivered(webhookLog)) { $0["subject"] as? String }
                return Outcome(records: records, ids: ids[device] ?? [])
            }
        }
    }

    /// What an output's default filter delivers: region and beacon transitions.
    static func isTransition(_ record: String) -> Bool {
        record.contains(#""kind":"region""#) || record.contains(#""kind":"beacon""#)
    }

    /// The shed's beacon region into the store `db`.
    static func importBeaconRegion(db: String, directory: TemporaryDirectory) async throws {
        let file = try directory.write("shed.geojson", beaconRegion)
        let imported = try await runWaymark(["regions", "import", file, "--db", db])
        try #require(imported.status == 0, "\(imported.stderr)")
    }

    /// A webhook output `hub` to the receiver on `port`, defined in the store `db`; its signing secret.
    static func addWebhook(db: String, port: Int) async throws -> String {
        let added = try await runWaymark(["outputs", "add", "hub", "--webhook", "http://127.0.0.1:\(port)/hook", "--db", db])
        try #require(added.status == 0, "\(added.stderr)")
        return try #require(added.stdoutLines.first { $0.hasPrefix("secret: ") }.map { String($0.dropFirst(8)) })
    }

    /// The single daemon's stored event records for `device`, in commit order (Python's sqlite3:
    /// the daemon holds the database open in WAL mode, which readers share).
    static func storedRecords(_ db: String) async throws -> [String] {
        let read = try await runPython(
            """
            import sqlite3, sys
            connection = sqlite3.connect(sys.argv[1])
            for (record,) in connection.execute("SELECT record FROM events WHERE device = ? ORDER BY id", (sys.argv[2],)):
                print(record)
            """, [db, device])
        try #require(read.status == 0, "\(read.stderr)")
        return read.stdoutLines
    }

    /// The fleet rig (its three devices, `device` among them, send the same track) with a webhook
    /// output defined before the import, delivered by one output node.
    static func fleet() async throws -> Outcome {
        let directory = try TemporaryDirectory()
        let webhookPort = try freeLoopbackPort()
        var hookSecret = ""
        let rig = try await FleetTests.Rig.start(workers: 2, outputNodes: 1) { db in
            try await Self.importBeaconRegion(db: db, directory: directory)
            hookSecret = try await Self.addWebhook(db: db, port: webhookPort)
        }
        let webhookLog = directory.path("webhook.jsonl")
        do {
            let receiver = try WebhookOutputTests.receiver(port: webhookPort, secret: hookSecret, log: webhookLog)
            let outcome = try await receiver.whileRunning {
                try await WebhookOutputTests.waitForReceiver(receiver, port: webhookPort)
                let fed = try await rig.feed()
                let secret = try #require(rig.devices.first { $0.name == device }?.secret)
                try await sendBeacons(port: rig.ingestPort, secret: secret)
                try await rig.waitForFixes(fed.fixes + 1)
                try await rig.expectEveryEventPublishedOnce()
                let records = try await rig.sql(
                    "SELECT record FROM events WHERE device = '\(device)' ORDER BY sequence, split_part(id, '/', 3)::int")
                let total = Int(try await rig.sql("SELECT count(*) FROM events WHERE kind IN ('region', 'beacon')").first ?? "") ?? -1
                _ = try await BackgroundProcess.waitUntil(timeout: 60) { WebhookOutputTests.delivered(webhookLog).count >= total }
                let ids = FleetOutputTests.firstArrivals(WebhookOutputTests.delivered(webhookLog)) { $0["subject"] as? String }
                return Outcome(records: records, ids: ids[device] ?? [])
            }
            try await rig.stop()
            return outcome
        } catch {
            try? await rig.stop()
            throw error
        }
    }
}
