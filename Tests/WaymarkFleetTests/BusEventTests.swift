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

    /// A place change's region is its new place, as in the single daemon's history, so the
    /// outputs' region filter and Home Assistant's tracker state read it alike.
    @Test func aPlaceChangesRegionIsItsNewPlace() throws {
        let home = try BusEvent.decode(
            subject: "waymark.event.walker",
            payload: Array(#"{"kind":"place","place":"home","previous":"city","time":"2026-06-01T08:00:00Z","latitude":47,"longitude":8}"#.utf8), sequence: 7)
        #expect(home.kind == .place && home.region == "home" && home.transition == nil)
        let none = try BusEvent.decode(
            subject: "waymark.event.walker",
            payload: Array(#"{"kind":"place","place":null,"previous":"home","time":"2026-06-01T08:00:00Z","latitude":47,"longitude":8}"#.utf8), sequence: 8)
        #expect(none.region == nil)
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
