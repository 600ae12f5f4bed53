import Testing
import WaymarkCore
import WaymarkPipeline
import WaymarkRegions
import WaymarkSources

@testable import WaymarkFleet

/// A fleet worker takes a phone's transition as evidence as the single daemon does (one
/// runtime; docs/devices.md, "The phone's transitions as evidence"): the report travels with
/// its kind and position, and the worker records the device's word, then the server's own event.
@Suite struct PartitionReportedEvidenceTests {
    @Test func aWorkerRecordsThePhonesEvidenceAsTheDaemonDoes() throws {
        let park = Region(identifier: "park", shape: .circle(center: Coordinate(latitude: 47.0, longitude: 8.0), radius: 200))
        var fix = Fix(time: Timestamp(secondsSince1970: 1_700_000_000), coordinate: Coordinate(latitude: 47.05, longitude: 8.0))
        fix.horizontalAccuracy = 30
        let transition = OwnTracksTransition(
            event: .enter, time: Timestamp(secondsSince1970: 1_700_000_300),
            fix: Fix(time: nil, coordinate: Coordinate(latitude: 47.0, longitude: 8.0005)), regionName: "Park", regionID: "park", trigger: "c")
        let payload = ReportPayload(device: "a", event: transition.eventRecord)
        let travelled = try ReportPayload.decode(payload.encoded())
        #expect(travelled.event == transition.eventRecord, "kind, region, transition and position survive the bus")

        var state = PartitionState(monitors: RegionMonitors([park]), regionsVersion: 1)
        state.admit("a", from: DeviceResume(states: [], lastSequence: 0))
        let batch = state.apply([
            PartitionState.Input(sequence: 1, payload: FixPayload(device: "a", fix: fix, time: fix.time!)),
            PartitionState.Input(sequence: 2, payload: .report(travelled)),
        ])
        #expect(batch.events.map(\.id) == ["a/2/0", "a/2/1", "a/2/2"], "the report, the entry, the place")
        #expect(batch.events.map(\.kind) == ["reportedRegion", "region", "place"])
        #expect(batch.states["a"]?["park"]?.inside == true)

        // The single daemon's pipeline, fed the same, records the same.
        var single = DevicePipeline(monitors: RegionMonitors([park]))
        _ = single.record(fix: fix, arrival: Arrival(time: fix.time!, judgesFuture: false))
        let step = single.record(reported: transition.eventRecord)
        #expect(batch.events.dropFirst().map(\.record) == step.recordings.compactMap { if case .event(let e) = $0 { e.record } else { nil } })
    }
}
