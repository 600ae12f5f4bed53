import Testing
import WaymarkCore
import WaymarkPipeline
import WaymarkRegions

@testable import WaymarkFleet

/// A worker builds its devices' pipelines from its `PipelineSettings` (docs/fleet.md,
/// "Settings"): the monitors of its regions snapshot carry them into every device's pipeline,
/// so `regions.crossing_gap` and `regions.activity` change what a worker records as they
/// change what the single daemon and `waymark replay` record.
@Suite struct WorkerPipelineSettingsTests {
    static let start = Timestamp(secondsSince1970: 1_717_232_400)
    static let centre = Coordinate(latitude: 47.99, longitude: 7.83)

    /// What a worker records for `fixes` of one device, with regions built by its board.
    static func regionRecords(_ fixes: [Fix], regions: [Region], settings: PipelineSettings) -> [String] {
        let snapshot = RegionsBoard.Snapshot(regions: regions, version: 1, settings: settings)
        var state = PartitionState(monitors: snapshot.monitors, regionsVersion: snapshot.version)
        state.admit("car", from: DeviceResume(states: [], lastSequence: 0))
        let inputs = fixes.enumerated().map { index, fix in
            PartitionState.Input(sequence: UInt64(index + 1), payload: FixPayload(device: "car", fix: fix, time: fix.time!))
        }
        return state.apply(inputs).events.map(\.record).filter { $0.hasPrefix("{\"kind\":\"region\"") }
    }

    @Test func theCrossingGapDecidesWhetherASparseCrossingIsInferred() {
        // Two fixes 200 s and 2 km apart, either side of a 100 m circle.
        let fixes = [-1000.0, 1000].enumerated().map { index, east in
            Fix(time: Self.start.adding(seconds: Double(index) * 200), coordinate: Geodesic.destination(from: Self.centre, azimuth: 90, distance: east))
        }
        let kiosk = Region(identifier: "kiosk", shape: .circle(center: Self.centre, radius: 100))
        let crossed = Self.regionRecords(fixes, regions: [kiosk], settings: .standard)
        #expect(crossed.count == 2 && crossed.allSatisfy { $0.contains("\"crossed\":true") }, "\(crossed)")
        var short = PipelineSettings.standard
        short.crossingGap = 100
        #expect(Self.regionRecords(fixes, regions: [kiosk], settings: short).isEmpty)
    }

    @Test func theRegionActivityBoundsTheJumpsTheRegionEngineSees() {
        // A car: 300 m every 10 s (30 m/s) through a 1.5 km circle; a cyclist's bound is 15 m/s.
        let fixes = (0..<20).map { step in
            Fix(
                time: Self.start.adding(seconds: Double(step) * 10),
                coordinate: Geodesic.destination(from: Self.centre, azimuth: 90, distance: Double(step - 8) * 300))
        }
        let bridge = Region(identifier: "bridge", shape: .circle(center: Self.centre, radius: 1500))
        let driven = Self.regionRecords(fixes, regions: [bridge], settings: .standard)
        #expect(driven.map { $0.contains("\"transition\":\"enter\"") } == [true, false], "\(driven)")
        var cycling = PipelineSettings.standard
        cycling.regionActivity = .fitness
        #expect(Self.regionRecords(fixes, regions: [bridge], settings: cycling).isEmpty)
    }
}
