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

    static func fix(accuracy: Double? = 4.2, hdop: Double? = nil) -> OutputFix {
        OutputFix(
            sequence: 9, device: "phone", time: Timestamp(secondsSince1970: 1_700_000_000.2), coordinate: Coordinate(latitude: 46.5, longitude: 7.5),
            accuracy: accuracy, hdop: hdop, altitude: 612.6, speed: 2.5, course: 359.7)
    }

    static func object(_ payload: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any])
    }

    @Test func aRegionExitIsALeaveOnTheEventTopicWithTheFixAccuracy() throws {
        let event = Self.event(.region, transition: "exit", coordinate: Coordinate(latitude: 47, longitude: 8))
        let (topic, payload) = try #require(OwnTracksFormat.message(for: event, fix: Self.fix(), user: "alice", base: "owntracks", origin: "urn:waymark:pi"))
        #expect(topic == "owntracks/alice/phone/event")
        let object = try Self.object(payload)
        #expect(object["_type"] as? String == "transition" && object["event"] as? String == "leave" && object["desc"] as? String == "home")
        #expect(object["t"] as? String == "c" && object["tst"] as? Int == 1_700_000_000 && object["tid"] as? String == "ne")
        // The event's own position, the fix's accuracy rounded up to whole metres (Home Assistant ignores 0).
        #expect(object["lat"] as? Double == 47 && object["lon"] as? Double == 8 && object["acc"] as? Int == 5)
    }

    @Test func aTransitionAlwaysHasLatitudeAndLongitude() throws {
        // A beacon transition has no position of its own: the device's fix gives one.
        let beacon = try #require(OwnTracksFormat.message(for: Self.event(.beacon, transition: "enter"), fix: Self.fix(), user: "alice", base: "ot", origin: "urn:waymark:pi"))
        let object = try Self.object(beacon.payload)
        #expect(object["event"] as? String == "enter" && object["t"] as? String == "b")
        #expect(object["lat"] as? Double == 46.5 && object["lon"] as? Double == 7.5 && object["acc"] as? Int == 5)
        // No fix at all: 0, 0 and no accuracy, which Home Assistant does not move a tracker to.
        let unplaced = try Self.object(try #require(OwnTracksFormat.message(for: Self.event(.beacon, transition: "exit"), fix: nil, user: "a", base: "ot", origin: "urn:waymark:pi")).payload)
        #expect(unplaced["lat"] as? Double == 0 && unplaced["lon"] as? Double == 0 && unplaced["acc"] == nil)
    }

    @Test func dwellsAndOtherKindsHaveNoMessage() {
        #expect(OwnTracksFormat.message(for: Self.event(.region, transition: "dwell"), fix: nil, user: "alice", base: "ot", origin: "urn:waymark:pi") == nil)
        #expect(OwnTracksFormat.message(for: Self.event(.visit), fix: nil, user: "alice", base: "ot", origin: "urn:waymark:pi") == nil)
        #expect(OwnTracksFormat.message(for: Self.event(.location), fix: Self.fix(), user: "alice", base: "ot", origin: "urn:waymark:pi") == nil)
    }

    @Test func aFixIsALocationInOwnTracksUnits() throws {
        let (topic, payload) = OwnTracksFormat.location(Self.fix(), user: "alice", base: "owntracks", origin: "urn:waymark:pi")
        #expect(topic == "owntracks/alice/phone" && payload.hasPrefix(#"{"_type":"location""#))
        let object = try Self.object(payload)
        #expect(object["lat"] as? Double == 46.5 && object["lon"] as? Double == 7.5 && object["acc"] as? Int == 5)
        #expect(object["alt"] as? Int == 613 && object["vel"] as? Int == 9 && object["cog"] as? Int == 0 && object["tst"] as? Int == 1_700_000_000)
        // No accuracy: 5 m per unit of HDOP; neither: no acc.
        #expect(try Self.object(OwnTracksFormat.location(Self.fix(accuracy: nil, hdop: 1.3), user: "a", base: "o", origin: "urn:waymark:pi").payload)["acc"] as? Int == 7)
        #expect(try Self.object(OwnTracksFormat.location(Self.fix(accuracy: nil), user: "a", base: "o", origin: "urn:waymark:pi").payload)["acc"] == nil)
        #expect(try Self.object(OwnTracksFormat.location(Self.fix(accuracy: 0), user: "a", base: "o", origin: "urn:waymark:pi").payload)["acc"] as? Int == 1)
    }

    @Test func itsOwnMessagesAreRecognised() {
        let (_, payload) = OwnTracksFormat.location(Self.fix(), user: "alice", base: "owntracks", origin: "urn:waymark:pi")
        #expect(OwnTracksFormat.isOwn(Array(payload.utf8), origin: "urn:waymark:pi"))
        #expect(!OwnTracksFormat.isOwn(Array(payload.utf8), origin: "urn:waymark:p"))
        #expect(!OwnTracksFormat.isOwn(Array(payload.utf8), origin: "urn:waymark:pi2"))
        #expect(!OwnTracksFormat.isOwn(Array(#"{"_type":"location","lat":1,"lon":2}"#.utf8), origin: "urn:waymark:pi"))
        #expect(!OwnTracksFormat.isOwn([], origin: "urn:waymark:pi"))
    }
}
