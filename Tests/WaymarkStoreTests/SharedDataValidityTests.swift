import Foundation
import Testing
import WaymarkCore
import WaymarkRegions
import WaymarkTestSupport

@testable import WaymarkStore

/// The real GeoJSON files in ../shared/data/geojson, imported with `skipInvalid`: which features
/// SpatiaLite's ST_IsValid rejects, and that everything else is stored intact.
@Suite struct SharedDataValidityTests {
    @Test(arguments: [
        ("new-york-city-boroughs.geojson", "name", ["Queens"]),
        ("manhattan.geojson", "name", []),
        ("ne_10m_parks_and_protected_lands_area.json", "unit_code", []),
        ("ne_50m_admin_0_countries.json", nil, []),
        ("ne_50m_urban_areas.json", nil, []),
    ] as [(String, String?, [String])])
    func sharedFilesImportWithOnlyTheKnownInvalidFeaturesRejected(
        file: String, identifierProperty: String?, invalid: [String]
    ) throws {
        let regions = try Self.regions(inGeoJSON: ProjectPaths.sharedData("geojson/\(file)"), identifierProperty)
        let store = try WaymarkStore.temporary(logger: quietLogger)
        let report = try store.importRegions(regions, replace: false, skipInvalid: true)
        #expect(report.rejected.map(\.identifier) == invalid)
        #expect(report.inserted.count == regions.count - invalid.count)
        if file.hasPrefix("new-york") {
            // A spike in Queens' largest polygon (16 142 vertices) runs out and back along the
            // same vertices near Flushing Bay.
            #expect(report.rejected.first?.reason == "Ring Self-intersection[-73.83728 40.78901]")
        }
        let stored = try store.regions()
        let expected = regions.filter { !invalid.contains($0.identifier) }
        #expect(stored == expected.sorted { $0.identifier.utf8.lexicographicallyPrecedes($1.identifier.utf8) })
    }

    /// A minimal reader of GeoJSON Polygon/MultiPolygon features for this check (the project's
    /// reader lives in WaymarkGeoJSON); features are named by a property or by their position.
    static func regions(inGeoJSON url: URL, _ identifierProperty: String?) throws -> [Region] {
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        let features = try #require(root?["features"] as? [[String: Any]])
        func ring(_ value: Any) throws -> [Coordinate] {
            try #require(value as? [[Double]]).map { Coordinate(latitude: $0[1], longitude: $0[0]) }
        }
        func polygon(_ value: Any) throws -> Polygon {
            let rings = try #require(value as? [Any]).map(ring)
            return Polygon(exterior: rings[0], holes: Array(rings.dropFirst()))
        }
        return try features.enumerated().map { index, feature in
            let geometry = try #require(feature["geometry"] as? [String: Any])
            let coordinates = try #require(geometry["coordinates"])
            let polygons: [Polygon] =
                switch geometry["type"] as? String {
                case "Polygon": [try polygon(coordinates)]
                case "MultiPolygon": try #require(coordinates as? [Any]).map(polygon)
                default: []
                }
            let properties = feature["properties"] as? [String: Any]
            let identifier = identifierProperty.flatMap { properties?[$0] as? String } ?? "feature-\(index)"
            let json = try properties.map {
                String(decoding: try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]), as: UTF8.self)
            }
            return Region(identifier: identifier, shape: .polygons(polygons), propertiesJSON: json)
        }
    }
}
