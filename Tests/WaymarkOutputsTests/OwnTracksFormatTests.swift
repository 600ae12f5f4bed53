import Foundation
import Testing
import WaymarkCore
import WaymarkOutputs

@Suite struct OwnTracksFormatTests {
    static func event(_ kind: EventKind, transition: String? = nil, coordinate: Coordinate? = nil) -> OutputEvent {
        OutputEvent(
            sequence: 1, device: "phone", time: Timestamp(secondsSince1970: 1_700_000_000.7), kind: kind, region: "home",
            transition: transition, record: "{}", coordinate: coordinate)
    }

    @Test func aRegionExitIsALeaveOnTheEventTopic() throws {
        let (topic, payload) = try #require(
            OwnTracksFormat.message(for: Self.event(.region, transition: "exit", coordinate: Coordinate(latitude: 47, longitude: 8)), user: "alice", base: "owntracks"))
        #expect(topic == "owntracks/alice/phone/event")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any])
        #expect(object["_type"] as? String == "transition" && object["event"] as? String == "leave" && object["desc"] as? String == "home")
        #expect(object["t"] as? String == "c" && object["tst"] as? Int == 1_700_000_000 && object["tid"] as? String == "ne")
        #expect(object["lat"] as? Double == 47 && object["lon"] as? Double == 8)
    }

    @Test func beaconsLocationsAndOtherKinds() throws {
        let beacon = try #require(OwnTracksFormat.message(for: Self.event(.beacon, transition: "enter"), user: "alice", base: "owntracks"))
        #expect(beacon.payload.contains(#""event":"enter""#) && beacon.payload.contains(#""t":"b""#) && !beacon.payload.contains("lat"))
        let location = try #require(
            OwnTracksFormat.message(for: Self.event(.location, coordinate: Coordinate(latitude: 1, longitude: 2)), user: "alice", base: "ot"))
        #expect(location.topic == "ot/alice/phone" && location.payload.hasPrefix(#"{"_type":"location""#))
        #expect(OwnTracksFormat.message(for: Self.event(.region, transition: "dwell"), user: "alice", base: "ot") == nil)
        #expect(OwnTracksFormat.message(for: Self.event(.visit), user: "alice", base: "ot") == nil)
    }
}
