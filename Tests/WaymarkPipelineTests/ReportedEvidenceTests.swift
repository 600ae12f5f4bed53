import Testing
import WaymarkCore
import WaymarkPipeline
import WaymarkRegions
import WaymarkSources

/// A phone's OwnTracks `transition` through the pipeline every runtime drives
/// (`DevicePipeline.record(reported:)`, docs/semantics.md §3.8): the server's own event, marked
/// as the phone's evidence, with its place and the state a restart resumes from.
@Suite struct ReportedEvidenceTests {
    static let park = Region(identifier: "park", shape: .circle(center: Coordinate(latitude: 47.0, longitude: 8.0), radius: 200))
    static let kiosk = Region(identifier: "kiosk", shape: .circle(center: Coordinate(latitude: 47.0, longitude: 8.01), radius: 50))

    static func reported(_ json: String) throws -> EventRecord {
        let messages = try OwnTracksDecoder.decode(Array(json.utf8))
        guard case .reported(let record)? = messages.first?.sourceEvents(received: Timestamp(secondsSince1970: 0)).first else {
            Issue.record("no reported event from \(json)")
            return EventRecord(time: Timestamp(secondsSince1970: 0), kind: .reportedCard, record: "{}")
        }
        return record
    }

    static func transition(_ event: String, _ rid: String, lon: Double, at seconds: Int) -> String {
        #"{"_type":"transition","event":"\#(event)","rid":"\#(rid)","desc":"\#(rid)","lat":47.0,"lon":\#(lon),"tst":\#(seconds),"acc":12,"t":"c"}"#
    }

    static func far(_ seconds: Int, north: Double = 0.05) -> Fix {
        var fix = Fix(time: Timestamp(secondsSince1970: Double(seconds)), coordinate: Coordinate(latitude: 47.0 + north, longitude: 8.0))
        fix.horizontalAccuracy = 30
        return fix
    }

    @Test func aWatchedCirclesReportedEntryIsTheServersOwnWithItsPlaceAndState() throws {
        let arrival = Arrival(time: Timestamp(secondsSince1970: 2_000_000_000), judgesFuture: true)
        var pipeline = DevicePipeline(regions: [Self.park, Self.kiosk])
        let established = pipeline.record(fix: Self.far(1_700_000_000), arrival: arrival).regionsEstablished
        let step = pipeline.record(reported: try Self.reported(Self.transition("enter", "park", lon: 8.0005, at: 1_700_000_300)))
        #expect(step.recordings.count == 2, "the entry and the place: \(step.events)")
        guard case .region(let entry)? = step.events.first else { return #expect(Bool(false), "\(step.events)") }
        #expect(entry.rule == .phone && entry.kind == .enter && entry.fix.time == Timestamp(secondsSince1970: 1_700_000_300))
        #expect(step.events.first?.record.hasSuffix(#","confirmedAt":"2023-11-14T22:18:20Z","evidence":"phone"}"#) == true, "\(step.events)")
        #expect(pipeline.place == "park")
        #expect(step.states == [SavedRegionState(identifier: "park", inside: true, since: Timestamp(secondsSince1970: 1_700_000_300))])
        // The same report again, and one for a circle the phone holds only as a trigger: nothing.
        #expect(pipeline.record(reported: try Self.reported(Self.transition("enter", "park", lon: 8.0005, at: 1_700_000_300))).events.isEmpty)
        #expect(pipeline.record(reported: try Self.reported(Self.transition("enter", "kiosk", lon: 8.01, at: 1_700_000_320))).events.isEmpty)
        // A restart resumes inside, with its place and no event.
        var restarted = DevicePipeline(regions: [Self.park, Self.kiosk], savedStates: SavedRegionStates(step.states, established: established))
        #expect(restarted.place == "park" && restarted.regionMonitor.inside == [0])
        // Fixes far away again: the usual exit, the fixes' own.
        _ = restarted.record(fix: Self.far(1_700_000_900), arrival: arrival)
        let exit = restarted.record(fix: Self.far(1_700_000_960, north: 0.051), arrival: arrival)
        guard case .region(let left)? = exit.events.first else { return #expect(Bool(false), "\(exit.events)") }
        #expect(left.kind == .exit && left.rule != .phone && left.fix.time == Timestamp(secondsSince1970: 1_700_000_900))
        #expect(restarted.place == nil)
    }

    @Test func otherReportsAreNoEvidence() throws {
        var pipeline = DevicePipeline(regions: [Self.park])
        let card = #"{"_type":"card","name":"Alice","tid":"al"}"#
        #expect(pipeline.record(reported: try Self.reported(card)).events.isEmpty)
        // A transition without a position, and a beacon's.
        let unplaced = #"{"_type":"transition","event":"enter","rid":"park","tst":1700000300,"t":"c"}"#
        #expect(pipeline.record(reported: try Self.reported(unplaced)).events.isEmpty)
        #expect(pipeline.regionMonitor.inside.isEmpty)
    }
}
