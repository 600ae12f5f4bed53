import Testing
import WaymarkCore
import WaymarkGeoJSON
import WaymarkRegions
import WaymarkTestSupport

@testable import WaymarkStore

/// Issue 38's per-region timing survives the store: the options are read back from the kept
/// properties, for circles, polygons and beacon regions, after the store is closed and reopened.
@Suite struct RegionTimingOptionsStoreTests {
    static let features = #"""
        {"type":"FeatureCollection","features":[
        {"type":"Feature","id":"home","properties":{"radius":60,"enterDelay":30,"exitDelay":180,"margin":25,"maxAccuracy":100,"priority":10,"note":"mine"},"geometry":{"type":"Point","coordinates":[11.5,48.1]}},
        {"type":"Feature","id":"park","properties":{"hysteresis":12,"exitDelay":0,"priority":-1e3},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}},
        {"type":"Feature","id":"office","properties":{"radius":40,"margin":8,"hysteresis":8,"priority":7.0,"confirmationTime":45},"geometry":{"type":"Point","coordinates":[11.6,48.2]}},
        {"type":"Feature","id":"hut","geometry":null,"properties":{"beacon":{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"},"priority":3,"enterDelay":5}}
        ]}
        """#

    @Test func optionsRoundTripThroughTheStore() throws {
        let regions = try GeoJSONRegionDecoder().decode(Array(Self.features.utf8), file: "regions.geojson").map(\.region)
        #expect(regions[0].options == RegionOptions(hysteresis: 25, enterDelay: 30, exitDelay: 180, maxAccuracy: 100, priority: 10))
        #expect(regions[1].options == RegionOptions(hysteresis: 12, exitDelay: 0, priority: -1000))
        #expect(regions[2].options == RegionOptions(hysteresis: 8, confirmationTime: 45, priority: 7))
        #expect(regions[3].options == RegionOptions(enterDelay: 5, priority: 3))
        let directory = try TemporaryDirectory()
        let path = directory.path("regions.sqlite")
        try WaymarkStore(path: path, logger: quietLogger).importRegions(regions, replace: false)

        let reopened = try WaymarkStore(path: path, logger: quietLogger)
        let stored = try reopened.regions()
        #expect(stored.map(\.identifier) == ["home", "hut", "office", "park"])
        for region in regions {
            let back = try #require(try reopened.region(identifier: region.identifier))
            #expect(back.options == region.options, "\(region.identifier)")
            #expect(back.propertiesJSON == region.propertiesJSON, "\(region.identifier)")
            #expect(stored.first { $0.identifier == region.identifier }?.options == region.options)
        }
        // The properties are kept as given, user data and all.
        #expect(try reopened.region(identifier: "home")?.propertiesJSON?.contains(#""note":"mine""#) == true)
    }

    @Test func aStoredPriorityThatIsNotAnIntegerIsNoPriority() throws {
        // Written past the decoder (an older or hand-edited database): no crash, no rounding.
        let store = try WaymarkStore.temporary(logger: quietLogger)
        let region = Region(
            identifier: "odd", shape: .circle(center: Coordinate(latitude: 1, longitude: 1), radius: 10),
            propertiesJSON: #"{"radius":10,"priority":2.5,"maxAccuracy":40}"#)
        try store.importRegions([region], replace: false)
        let back = try #require(try store.region(identifier: "odd"))
        #expect(back.options.priority == nil)
        #expect(back.options.maxAccuracy == 40)
    }
}
