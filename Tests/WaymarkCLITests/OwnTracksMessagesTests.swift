import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

/// The OwnTracks messages other than `location` and `transition`, as the apps send them over
/// HTTP, through a real daemon (docs/devices.md, "What each message does").
@Suite struct OwnTracksMessagesTests {
    static let door = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"
    /// The plaza circle and a beacon region for the door's beacons with major 2.
    static let regions = """
        {"type":"FeatureCollection","features":[{"type":"Feature","id":"plaza",
        "geometry":{"type":"Point","coordinates":[8.0,47.0]},"properties":{"radius":100}},
        {"type":"Feature","id":"door","geometry":null,"properties":{"beacon":{"uuid":"\(door)","major":2}}}]}
        """

    static func rfc3339(_ seconds: Int) -> String { Timestamp(secondsSince1970: Double(seconds)).rfc3339 }

    @Test func waypointsCardsAndLastWillsAreRecordedAsTheDevicesWord() async throws {
        let rig = try await NetworkDevicesTests.Rig.start(regions: Self.regions)
        try await rig.daemon.whileRunning {
            let bearer = ["Authorization: Bearer \(rig.phoneSecret)"]
            // iOS publishes a region it created, with its topic; Android exports them all at once.
            let waypoint = #"{"_type":"waypoint","desc":"Home","lat":47.1,"lon":8.1,"rad":50,"tst":1700000000,"rid":"h0me","topic":"owntracks/alice/phone/waypoint"}"#
            let waypoints = #"{"_type":"waypoints","waypoints":[{"_type":"waypoint","desc":"Office","lat":47.2,"lon":8.2,"rad":120,"tst":1700000100},"#
                + #"{"_type":"waypoint","desc":"Shed:\#(Self.door):2:7","uuid":"\#(Self.door)","major":2,"minor":7,"tst":1700000200}]}"#
            let card = #"{"_type":"card","name":"Alice","face":"iVBORw0KGgo=","tid":"ph"}"#
            let lastWill = #"{"_type":"lwt","tst":1700000300}"#
            for body in [waypoint, waypoints, card, lastWill] {
                let sent = try await rig.ownTracks(body, bearer)
                #expect(sent.status == 200, "\(body): \(sent.body)")
            }
            let events = try await rig.history(["--device", "phone", "--kind", "event"])
            let byKind = Dictionary(grouping: events) { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["kind"] as? String ?? "?"
            }
            let recorded = byKind["reportedWaypoint"] ?? []
            #expect(recorded.count == 3, "\(events)")
            #expect(recorded.contains { $0.contains(#""region":"h0me","#) && $0.contains(#""created":"\#(Self.rfc3339(1700000000))","description":"Home","latitude":47.1,"longitude":8.1,"radius":50,"device":"phone"}"#) }, "\(recorded)")
            #expect(recorded.contains { $0.contains(#""region":"Office","#) && $0.contains(#""radius":120,"#) }, "\(recorded)")
            #expect(recorded.contains { $0.contains(#""uuid":"\#(Self.door)","major":2,"minor":7,"device":"phone"}"#) }, "\(recorded)")
            let cards = byKind["reportedCard"] ?? []
            #expect(cards.count == 1 && cards[0].contains(#""name":"Alice","trackerID":"ph","device":"phone"}"#), "\(cards)")
            #expect(!(cards.first ?? "").contains("iVBOR"), "the picture is not kept")
            let offline = byKind["reportedOffline"] ?? []
            #expect(offline.count == 1 && offline[0].hasSuffix(#""connectedAt":"\#(Self.rfc3339(1700000300))","device":"phone"}"#), "\(offline)")
            // None of them is a region Waymark monitors, and none reached a handler.
            #expect(Set(byKind.keys) == ["reportedWaypoint", "reportedCard", "reportedOffline"], "\(events)")
            #expect(!FileManager.default.fileExists(atPath: rig.directory.path("phone-log.jsonl")))
        }
    }

    @Test func aBeaconThePhoneRangesEntersItsBeaconRegionUntilThePhonesTimePassesTheTimeout() async throws {
        let rig = try await NetworkDevicesTests.Rig.start(regions: Self.regions)
        try await rig.daemon.whileRunning {
            let bearer = ["Authorization: Bearer \(rig.phoneSecret)"]
            let start = Int(Date().timeIntervalSince1970) - 600
            let beacon = { (major: Int, at: Int) in
                #"{"_type":"beacon","uuid":"\#(Self.door)","major":\#(major),"minor":7,"tst":\#(at),"acc":1.5,"rssi":-71,"prox":2,"desc":"Shed"}"#
            }
            let sequence = [
                NetworkDevicesTests.location(latitude: 47.3, longitude: 8.5, at: start),
                beacon(3, start + 5),  // another major: not the door's
                beacon(2, start + 10),
                beacon(2, start + 20),
                NetworkDevicesTests.location(latitude: 47.3, longitude: 8.5, at: start + 40),  // within the 30 s timeout
                NetworkDevicesTests.location(latitude: 47.3, longitude: 8.5, at: start + 90),  // past it: the exit
            ]
            for body in sequence {
                let sent = try await rig.ownTracks(body, bearer)
                #expect(sent.status == 200, "\(body): \(sent.body)")
            }
            let events = try await rig.history(["--device", "phone", "--kind", "event"])
            #expect(events == [
                #"{"kind":"beacon","transition":"enter","region":"door","time":"\#(Self.rfc3339(start + 10))","uuid":"\#(Self.door)","major":2,"minor":7,"rssi":-71,"device":"phone"}"#,
                #"{"kind":"beacon","transition":"exit","region":"door","time":"\#(Self.rfc3339(start + 50))","lastSeen":"\#(Self.rfc3339(start + 20))","device":"phone"}"#,
            ], "\(events)")
            // The tracker saw nothing: the door's state is the phone's alone.
            #expect(try await rig.history(["--device", "tracker", "--kind", "event"]).isEmpty)
        }
    }
}
