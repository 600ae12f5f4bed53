import Testing
import WaymarkCore

@testable import WaymarkFleet

/// Events read back from the bus as outputs deliver them: the record a worker published, under
/// its device's subject, with the stream sequence as the event's sequence.
@Suite struct BusEventTests {
    static let record =
        #"{"kind":"region","transition":"enter","region":"forest","time":"2026-06-01T08:05:32Z","latitude":47.3666691,"longitude":8.6835653,"confirmedAt":"2026-06-01T08:05:52Z"}"#

    @Test func aPublishedRecordReadsBackAsTheEventItWas() throws {
        let subject = FleetSubjects.event(device: "bike.1")
        #expect(subject == "waymark.event.bike%2E1")
        let event = try BusEvent.decode(subject: subject, payload: Array(Self.record.utf8), sequence: 42)
        #expect(event.device == "bike.1")
        #expect(event.sequence == 42)
        #expect(event.kind == .region)
        #expect(event.region == "forest" && event.transition == "enter")
        #expect(event.time == Timestamp(rfc3339: "2026-06-01T08:05:32Z"))
        #expect(event.coordinate == Coordinate(latitude: 47.3666691, longitude: 8.6835653))
        #expect(event.record == Self.record, "the record goes out byte for byte")
    }

    @Test func anEventWithoutAPositionHasNone() throws {
        let event = try BusEvent.decode(
            subject: "waymark.event.walker", payload: Array(#"{"kind":"gap","time":"2026-06-01T08:00:00Z"}"#.utf8), sequence: 1)
        #expect(event.kind == .gap && event.coordinate == nil && event.region == nil)
    }

    @Test(arguments: [
        ("waymark.fix.1.walker", #"{"kind":"gap","time":"2026-06-01T08:00:00Z"}"#, "is not waymark.event.<device>"),
        ("waymark.event.", #"{"kind":"gap","time":"2026-06-01T08:00:00Z"}"#, "is not waymark.event.<device>"),
        ("waymark.event.walker", "not json", "is not an event's JSON"),
        ("waymark.event.walker", #"{"time":"2026-06-01T08:00:00Z"}"#, "is not an event's JSON"),
        ("waymark.event.walker", #"{"kind":"teleport","time":"2026-06-01T08:00:00Z"}"#, "unknown event kind 'teleport'"),
        ("waymark.event.walker", #"{"kind":"gap","time":"yesterday"}"#, "time 'yesterday' is not RFC 3339"),
    ])
    func whatIsNotAnEventIsNamed(subject: String, payload: String, problem: String) {
        do {
            _ = try BusEvent.decode(subject: subject, payload: Array(payload.utf8), sequence: 1)
            Issue.record("decoded \(payload)")
        } catch {
            #expect(error.description.contains(problem), "\(error)")
        }
    }
}
