import Testing
import WaymarkCore
import WaymarkNATS

@testable import WaymarkFleet

/// What an api node's live stream (`GET /v1/stream`) makes of the bus's messages: fixes and
/// events in the single daemon's shapes, a device's own reports and beacon sightings left out.
@Suite struct FleetLiveFeedTests {
    static let fix = Fix(
        time: Timestamp(rfc3339: "2026-06-01T08:00:01Z"), coordinate: Coordinate(latitude: 47.356, longitude: 8.67), altitude: 419,
        horizontalAccuracy: 5, speed: 4.5)

    @Test func aFixOnTheBusIsStreamedAsTheDaemonStreamsANetworkDevicesFix() throws {
        let payload = FixPayload(device: "bike.1", fix: Self.fix, time: try #require(Self.fix.time)).encoded()
        let subject = FleetSubjects.fix(device: "bike.1", partitions: 4)
        let entry = try #require(FleetLiveFeed.entry(NATSMessage(subject: subject, payload: payload)))
        #expect(entry.kind == "fix" && entry.device == "bike.1")
        #expect(
            entry.json
                == #"{"kind":"fix","time":"2026-06-01T08:00:01Z","latitude":47.356,"longitude":8.67,"altitude":419,"horizontalAccuracy":5,"speed":4.5,"source":"network","device":"bike.1"}"#)
        // The same device's reports and beacon sightings share the subject's prefix: not fixes.
        #expect(FleetLiveFeed.entry(NATSMessage(subject: subject + ".r", payload: payload)) == nil)
        #expect(FleetLiveFeed.entry(NATSMessage(subject: subject + ".b", payload: payload)) == nil)
    }

    @Test func anEventOnTheBusIsStreamedWithItsDeviceAndPosition() throws {
        let record = BusEventTests.record
        let entry = try #require(FleetLiveFeed.entry(NATSMessage(subject: FleetSubjects.event(device: "bike.1"), payload: Array(record.utf8))))
        #expect(entry.kind == "event" && entry.device == "bike.1")
        #expect(entry.time == Timestamp(rfc3339: "2026-06-01T08:05:32Z"))
        #expect(entry.coordinate == Coordinate(latitude: 47.3666691, longitude: 8.6835653))
        #expect(entry.json == String(record.dropLast()) + #","device":"bike.1"}"#)
        #expect(FleetLiveFeed.entry(NATSMessage(subject: FleetSubjects.event(device: "bike.1"), payload: Array("not json".utf8))) == nil)
    }

    @Test func historyMergesFixesBeforeEventsAtTheSameInstant() throws {
        let payload = FixPayload(device: "walker", fix: Self.fix, time: try #require(Self.fix.time)).encoded()
        let fix = try #require(FleetLiveFeed.entry(NATSMessage(subject: FleetSubjects.fix(device: "walker", partitions: 1), payload: payload)))
        var early = fix
        early.time = Timestamp(rfc3339: "2026-06-01T08:00:00Z")!
        var event = try #require(
            FleetLiveFeed.entry(NATSMessage(subject: FleetSubjects.event(device: "walker"), payload: Array(BusEventTests.record.utf8))))
        event.time = fix.time
        #expect(FleetBackend.merge([early, fix], [event]).map(\.kind) == ["fix", "fix", "event"])
        #expect(FleetBackend.merge([fix], [event]).map(\.kind) == ["fix", "event"])
        #expect(FleetBackend.merge([], [event]).map(\.kind) == ["event"])
    }
}
