import Foundation
import Testing
import WaymarkTestSupport

/// `waymark replay --beacons` as a user runs it: the real executable, replay files written here,
/// records on stdout, errors on stderr with their exit status.
@Suite struct BeaconReplayTests {
    static let trail = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"
    static let bike = "8DEEFBB9-F738-4297-8040-96668BB44281"

    /// A beacon region file: identifier → (uuid, major, minor, extra properties).
    static func regions(_ regions: [(String, String, Int?, Int?)], extra: String = "") -> String {
        let features = regions.map { id, uuid, major, minor in
            var beacon = "\"uuid\":\"\(uuid)\""
            if let major { beacon += ",\"major\":\(major)" }
            if let minor { beacon += ",\"minor\":\(minor)" }
            return #"{"type":"Feature","id":"\#(id)","geometry":null,"properties":{"beacon":{\#(beacon)}\#(extra)}}"#
        }
        return #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",\n") + "]}"
    }

    /// One replay line `seconds` after 2026-06-01T08:00:00Z.
    static func line(_ seconds: Double, _ uuid: String = trail, major: Int = 1, minor: Int = 1, rssi: Int = -60, power: Int = -59) -> String {
        let whole = Int(seconds)
        let fraction = seconds - Double(whole)
        let time = String(format: "2026-06-01T08:%02d:%02d", whole / 60, whole % 60) + (fraction > 0 ? String(format: ".%03dZ", Int((fraction * 1000).rounded())) : "Z")
        return #"{"time":"\#(time)","uuid":"\#(uuid)","major":\#(major),"minor":\#(minor),"rssi":\#(rssi),"measuredPower":\#(power)}"#
    }

    static func replay(regions: String, lines: [String], extra: [String] = []) async throws -> (ProcessResult, [[String: Any]]) {
        let directory = try TemporaryDirectory()
        let regionFile = try directory.write("beacons.geojson", regions)
        let beaconFile = try directory.write("ride.jsonl", lines.joined(separator: "\n") + "\n")
        let result = try await runWaymark(["replay", "--beacons", beaconFile, "--regions", regionFile, "--fast"] + extra)
        return (result, result.status == 0 ? try ReplayCommandTests.records(result) : [])
    }

    static func beaconEvents(_ records: [[String: Any]]) -> [String] {
        records.filter { $0["kind"] as? String == "beacon" }.map { "\($0["transition"]!) \($0["region"]!) \($0["time"]!)" }
    }

    @Test func entryAtTheFirstSightingAndExitOnlyOnceThirtySecondsHavePassed() async throws {
        let seen = stride(from: 0.0, through: 10, by: 1).map { Self.line($0) }
        // Another beacon at exactly 30 s after the last sighting: not yet an exit.
        let (atDeadline, early) = try await Self.replay(regions: Self.regions([("post", Self.trail, 1, 1)]), lines: seen + [Self.line(40, major: 2)])
        #expect(atDeadline.status == 0, "\(atDeadline.stderr)")
        #expect(Self.beaconEvents(early) == ["enter post 2026-06-01T08:00:00Z"])
        let summary = try #require(early.last?["beacons"] as? [String: Any])
        #expect(summary["inside"] as? [String] == ["post"])
        #expect(summary["advertisements"] as? Int == 12)

        // Half a second later it is: stamped when the 30 s ran out, with the last sighting.
        let (late, records) = try await Self.replay(regions: Self.regions([("post", Self.trail, 1, 1)]), lines: seen + [Self.line(40.5, major: 2)])
        #expect(late.status == 0, "\(late.stderr)")
        #expect(Self.beaconEvents(records) == ["enter post 2026-06-01T08:00:00Z", "exit post 2026-06-01T08:00:40Z"])
        let exit = try #require(records.first { $0["transition"] as? String == "exit" })
        #expect(exit["lastSeen"] as? String == "2026-06-01T08:00:10Z")
        let enter = try #require(records.first { $0["transition"] as? String == "enter" })
        #expect(enter["uuid"] as? String == Self.trail)
        #expect(enter["rssi"] as? Int == -60)
    }

    @Test func wildcardMajorAndMinorAndAnExitTimeoutPerRegion() async throws {
        let regions = Self.regions([("trail", Self.trail, nil, nil), ("north", Self.trail, 7, nil), ("gate", Self.trail, 7, 3), ("bike", Self.bike, nil, 9)])
        let lines = [
            Self.line(0, major: 1, minor: 1), Self.line(5, major: 7, minor: 1), Self.line(10, major: 7, minor: 3),
            Self.line(15, Self.bike, major: 100, minor: 9), Self.line(16, Self.bike, major: 100, minor: 8), Self.line(100, major: 1),
        ]
        let (result, records) = try await Self.replay(regions: regions, lines: lines)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            Self.beaconEvents(records) == [
                "enter trail 2026-06-01T08:00:00Z", "enter north 2026-06-01T08:00:05Z", "enter gate 2026-06-01T08:00:10Z",
                "enter bike 2026-06-01T08:00:15Z", "exit gate 2026-06-01T08:00:40Z", "exit north 2026-06-01T08:00:40Z",
                "exit trail 2026-06-01T08:00:40Z", "exit bike 2026-06-01T08:00:45Z", "enter trail 2026-06-01T08:01:40Z",
            ])
    }

    @Test func twoOverlappingRegionsEnterTogetherAndLeaveSeparately() async throws {
        // "hut" is any beacon of the trail UUID, "hut-door" only 1/2 with a 10 s timeout.
        let regions = #"{"type":"FeatureCollection","features":["#
            + #"{"type":"Feature","id":"hut","geometry":null,"properties":{"beacon":{"uuid":"\#(Self.trail)"}}},"#
            + #"{"type":"Feature","id":"hut-door","geometry":null,"properties":{"beacon":{"uuid":"\#(Self.trail)","major":1,"minor":2},"exitTimeout":10}}]}"#
        let lines = [Self.line(0, minor: 2), Self.line(5, minor: 2), Self.line(20, minor: 5), Self.line(60)]
        let (result, records) = try await Self.replay(regions: regions, lines: lines)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            Self.beaconEvents(records) == [
                "enter hut 2026-06-01T08:00:00Z", "enter hut-door 2026-06-01T08:00:00Z", "exit hut-door 2026-06-01T08:00:15Z",
                "exit hut 2026-06-01T08:00:50Z", "enter hut 2026-06-01T08:01:00Z",
            ])
    }

    @Test func rangingGivesProximityClassesFromAnRSSISeries() async throws {
        // Measured power −59 dBm: −75 ≈ 6.3 m far, −63 ≈ 1.6 m near, −50 ≈ 0.35 m immediate.
        var lines: [String] = []
        for (start, rssi) in [(0.0, -75), (10, -63), (20, -50)] {
            for step in 0..<20 { lines.append(Self.line(start + Double(step) * 0.5, rssi: rssi)) }
        }
        let (result, records) = try await Self.replay(regions: Self.regions([("post", Self.trail, 1, 1)]), lines: lines, extra: ["--ranging"])
        #expect(result.status == 0, "\(result.stderr)")
        let ranging = records.filter { $0["kind"] as? String == "ranging" }
        var classes: [String: String] = [:]
        for record in ranging {
            let beacon = try #require((record["beacons"] as? [[String: Any]])?.first)
            classes[record["time"] as! String] = beacon["proximity"] as? String
        }
        #expect(ranging.count == 30)  // 08:00:00 … 08:00:29, once a second
        #expect(classes["2026-06-01T08:00:05Z"] == "far")
        #expect(classes["2026-06-01T08:00:16Z"] == "near")
        #expect(classes["2026-06-01T08:00:27Z"] == "immediate")
        let first = try #require((ranging.first?["beacons"] as? [[String: Any]])?.first)
        #expect(first["rssi"] as? Double == -75)
        #expect(first["distance"] as? Double == 6.31)
        #expect(first["major"] as? Int == 1)
        #expect((records.last?["beacons"] as? [String: Any])?["rangings"] as? Int == 30)
    }

    @Test func beaconsPlayBesideAGPXTrackMergedByTime() async throws {
        let directory = try TemporaryDirectory()
        let regionFile = try directory.write("beacons.geojson", Self.regions([("bike-tag", Self.bike, 42, 1)]))
        let lines = stride(from: 30.0, through: 300, by: 10).map { Self.line($0, Self.bike, major: 42, minor: 1) }
        let beaconFile = try directory.write("ride.jsonl", lines.joined(separator: "\n"))
        let result = try await runWaymark(["replay", "Tracks/lakeside-ride.gpx", "--regions", "Regions", regionFile, "--beacons", beaconFile, "--fast"])
        #expect(result.status == 0, "\(result.stderr)")
        let records = try ReplayCommandTests.records(result)
        #expect(Self.beaconEvents(records) == ["enter bike-tag 2026-06-01T08:00:30Z", "exit bike-tag 2026-06-01T08:05:30Z"])
        // Region and beacon records are in one time order.
        let times = records.dropLast().compactMap { $0["time"] as? String }
        #expect(times == times.sorted())
        #expect(records.contains { $0["kind"] as? String == "region" })
        let summary = try #require(records.last)
        #expect(summary["regions"] as? Int == 5)  // the geographic ones, as before
        #expect((summary["beacons"] as? [String: Any])?["regions"] as? Int == 1)
    }

    @Test func capturedHCIPacketsReplayAndOtherVendorsAreCounted() async throws {
        let captured = "043E2A02010300ECF800EEF30C1E0201041AFF4C0002158DEEFBB9F73842978040" + "96668BB44281" + "13880F4EC1BB"
        let microsoft = "043E1502010300ECF800EEF30C09020106" + "05FF0600010920".dropLast(2) + "B0"
        let lines = [
            #"{"time":"2026-06-01T08:00:00Z","hci":"\#(captured)"}"#, #"{"time":"2026-06-01T08:00:01Z","hci":"\#(microsoft)"}"#,
        ]
        let (result, records) = try await Self.replay(regions: Self.regions([("bike", Self.bike, 5000, 3918)]), lines: lines)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.beaconEvents(records) == ["enter bike 2026-06-01T08:00:00Z"])
        let summary = try #require(records.last?["beacons"] as? [String: Any])
        #expect(summary["ignored"] as? [String: Int] == ["otherManufacturer": 1])
    }

    @Test(
        "bad replay lines stop with file:line:column, the field, and exit status 1",
        arguments: [
            (#"{"time":"2026-06-01T08:00:01Z","uuid":"nope","major":1,"minor":1,"rssi":-60,"measuredPower":-59}"#, ":2:39: uuid: must be 32 hexadecimal digits"),
            (#"{"time":"2026-06-01T08:00:01Z","uuid":"\#(trail)","major":1,"minor":1,"rssi":-60}"#, ":2:1: measuredPower: missing"),
            (#"{"time":"2026-06-01T08:00:01Z","uuid":"\#(trail)","major":-1,"minor":1,"rssi":-60,"measuredPower":-59}"#, ":2:86: major: must be an integer 0…65535; found -1\n"),
            (#"{"time":"2026-06-01T07:00:00Z","uuid":"\#(trail)","major":1,"minor":1,"rssi":-60,"measuredPower":-59}"#, ":2:9: time: 2026-06-01T07:00:00Z is earlier"),
            (#"{"time": 2026}"#, ":2:10: time: is a number; expected a string"),
            (#"not json"#, ":2:1: "),
        ])
    func badLines(line: String, expected: String) async throws {
        let directory = try TemporaryDirectory()
        let beaconFile = try directory.write("bad.jsonl", Self.line(0) + "\n" + line + "\n" + Self.line(2))
        let result = try await runWaymark(["replay", "--beacons", beaconFile, "--fast"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("Error: \(beaconFile)\(expected)"), "\(result.stderr)")
        #expect(!result.stdout.contains("\"summary\""))
    }

    @Test func optionsThatMakeNoSenseAreUsageErrors() async throws {
        #expect(try await runWaymark(["replay", "--fast"]).status == 64)
        #expect(try await runWaymark(["replay", "Tracks/lakeside-ride.gpx", "--ranging"]).status == 64)
    }

    @Test func regionsAddBeaconListsAndRemovesThroughTheStore() async throws {
        let directory = try TemporaryDirectory()
        let db = directory.path("regions.sqlite")
        let added = try await runWaymark(["regions", "add-beacon", "hut-door", "--uuid", Self.trail.lowercased(), "--major", "7", "--no-notify-exit", "--db", db])
        #expect(added.status == 0, "\(added.stderr)")
        let imported = try await runWaymark(["regions", "import", "Regions", "--db", db])
        #expect(imported.status == 0, "\(imported.stderr)")
        let list = try await runWaymark(["regions", "list", "--db", db])
        #expect(list.status == 0, "\(list.stderr)")
        let hut = try #require(list.stdoutLines.first { $0.contains("\"kind\":\"beacon\"") })
        #expect(hut.hasPrefix(#"{"identifier":"hut-door","kind":"beacon","beacon":{"uuid":"\#(Self.trail)","major":7,"minor":null},"properties":{"beacon":{"uuid":"\#(Self.trail)","major":7},"notifyOnExit":false},"options":{"notifyOnEntry":true,"notifyOnExit":false,"initialTrigger":false,"loiteringDelay":null,"exitTimeout":null,"priority":0}}"#), "\(hut)")
        #expect(list.stdoutLines.count == 6)
        // A geographic region of the same name is refused, a bad UUID or major is a usage error.
        #expect(try await runWaymark(["regions", "add-beacon", "hut", "--uuid", Self.trail, "--db", db]).status == 1)
        let badUUID = try await runWaymark(["regions", "add-beacon", "x", "--uuid", "E2C56DB5", "--db", db])
        #expect(badUUID.status == 64)
        #expect(badUUID.stderr.contains("--uuid must be 32 hexadecimal digits grouped 8-4-4-4-12"))
        #expect(try await runWaymark(["regions", "add-beacon", "x", "--uuid", Self.trail, "--minor", "65536", "--db", db]).status == 64)
        #expect(try await runWaymark(["regions", "remove", "hut-door", "--db", db]).status == 0)
        #expect(try await runWaymark(["regions", "list", "--db", db]).stdoutLines.count == 5)
    }
}
