import Testing
import WaymarkCore
import WaymarkExport

/// The stretches the profile shades: from an entry to the region's next exit, from the start
/// for a region the track starts in, to the end for one never left.
@Suite struct RegionStretchTests {
    static func event(_ kind: TrackEvent.Kind, _ region: String?) -> TrackEvent {
        TrackEvent(kind: kind, time: nil, coordinate: Coordinate(latitude: 47, longitude: 8), region: region, name: "", description: "")
    }

    @Test func entriesPairWithExitsAndOverlappingRegionsKeepTheirOwn() {
        let placed: [(event: TrackEvent, distance: Double)] = [
            (Self.event(.exit, "home"), 150),  // the track started inside home
            (Self.event(.enter, "reserve"), 1000),
            (Self.event(.enter, "forest"), 1200),
            (Self.event(.significantChange, nil), 1300),
            (Self.event(.exit, "forest"), 1500),
            (Self.event(.exit, "reserve"), 2000),
            (Self.event(.enter, "forest"), 2500),  // never left
        ]
        let stretches = RegionStretch.stretches(of: placed, initialRegions: ["home"], totalDistance: 3000)
        #expect(stretches == [
            RegionStretch(region: "home", from: 0, to: 150),
            RegionStretch(region: "reserve", from: 1000, to: 2000),
            RegionStretch(region: "forest", from: 1200, to: 1500),
            RegionStretch(region: "forest", from: 2500, to: 3000),
        ])
    }

    @Test func anExitWithoutAnEntryRunsFromTheStartOnce() {
        let placed: [(event: TrackEvent, distance: Double)] = [(Self.event(.exit, "hut"), 80), (Self.event(.exit, "hut"), 90)]
        #expect(RegionStretch.stretches(of: placed, initialRegions: [], totalDistance: 100) == [RegionStretch(region: "hut", from: 0, to: 80)])
        #expect(RegionStretch.stretches(of: [], initialRegions: [], totalDistance: 100).isEmpty)
        #expect(RegionStretch.stretches(of: [], initialRegions: ["lake"], totalDistance: 100) == [RegionStretch(region: "lake", from: 0, to: 100)])
    }
}
