import Testing
import WaymarkCore
import WaymarkGeoJSON
import WaymarkRegions
import WaymarkTestSupport

struct SharedFile: Sendable, CustomTestStringConvertible {
    var name: String
    var idProperty: String?
    var unnamed: GeoJSONRegionDecoder.UnnamedFeatures = .reject
    var count: Int
    var testDescription: String { "\(name) id=\(idProperty ?? "default")" }
}

/// Every region file in ../shared/data/geojson, with an id property that is unique in it.
@Test(
    "every shared GeoJSON file loads",
    arguments: [
        SharedFile(name: "ne_50m_admin_0_countries.json", idProperty: "ADM0_A3", count: 241),
        SharedFile(name: "ne_50m_admin_0_countries.json", idProperty: "NAME", count: 241),
        SharedFile(name: "ne_10m_parks_and_protected_lands_area.json", idProperty: "unit_code", count: 61),
        SharedFile(name: "ne_10m_parks_and_protected_lands_area.json", idProperty: nil, count: 61),
        SharedFile(name: "ne_50m_urban_areas.json", idProperty: nil, unnamed: .numberByIndex, count: 2_143),
        SharedFile(name: "new-york-city-boroughs.geojson", idProperty: nil, count: 5),
        SharedFile(name: "manhattan.geojson", idProperty: nil, count: 37),
    ])
func sharedFileLoads(_ f: SharedFile) throws {
    let regions = try GeoJSONRegionLoader.load(
        paths: [ProjectPaths.sharedData("geojson/" + f.name).path], idProperty: f.idProperty, unnamedFeatures: f.unnamed)
    #expect(regions.count == f.count)
    #expect(Set(regions.map(\.identifier)).count == f.count)
    #expect(regions.allSatisfy { $0.propertiesJSON?.hasPrefix("{") == true })
}

@Test("known identifiers and shapes from the shared files")
func sharedFileContents() throws {
    let boroughs = try GeoJSONRegionLoader.load(paths: [ProjectPaths.sharedData("geojson/new-york-city-boroughs.geojson").path])
    #expect(Set(boroughs.map(\.identifier)) == ["Staten Island", "Queens", "Brooklyn", "Manhattan", "Bronx"])
    let urban = try GeoJSONRegionLoader.load(
        paths: [ProjectPaths.sharedData("geojson/ne_50m_urban_areas.json").path], unnamedFeatures: .numberByIndex)
    #expect(urban[17].identifier == "ne_50m_urban_areas#17")
    let index = RegionIndex(regions: boroughs)
    var inside: [Int32] = []
    index.containing(Coordinate(latitude: 40.7829, longitude: -73.9654), into: &inside)  // Central Park
    #expect(inside.map { boroughs[Int($0)].identifier } == ["Manhattan"])
}

struct DuplicateCase: Sendable, CustomTestStringConvertible {
    var name: String
    var idProperty: String?
    var code: GeoJSONError.Code
    var testDescription: String { "\(name) id=\(idProperty ?? "default") → \(code.rawValue)" }
}

/// Identifiers that are not unique in these files: the urban areas have no name at all, and
/// their numeric properties repeat; countries have no `name`, `identifier` or `id`.
@Test(
    "files without unique identifiers are rejected with the reason",
    arguments: [
        DuplicateCase(name: "ne_50m_urban_areas.json", idProperty: nil, code: .missingIdentifier),
        DuplicateCase(name: "ne_50m_urban_areas.json", idProperty: "area_sqkm", code: .duplicateIdentifier),
        DuplicateCase(name: "ne_50m_urban_areas.json", idProperty: "scalerank", code: .duplicateIdentifier),
        DuplicateCase(name: "ne_50m_admin_0_countries.json", idProperty: nil, code: .missingIdentifier),
        DuplicateCase(name: "ne_50m_admin_0_countries.json", idProperty: "CONTINENT", code: .duplicateIdentifier),
        DuplicateCase(name: "ne_10m_parks_and_protected_lands_area.json", idProperty: "unit_type", code: .duplicateIdentifier),
    ])
func sharedFileDuplicates(_ c: DuplicateCase) {
    let path = ProjectPaths.sharedData("geojson/" + c.name).path
    do {
        _ = try GeoJSONRegionLoader.load(paths: [path], idProperty: c.idProperty)
        Issue.record("loaded")
    } catch {
        #expect(error.code == c.code, "\(error)")
        #expect(error.location?.file == path)
        #expect((error.location?.line ?? 0) > 3)
        #expect(error.featureIndex != nil)
        if c.code == .duplicateIdentifier { #expect(error.message.contains("first used by features[")) }
    }
}

@Test("a folder: region files in name order, metadata skipped; duplicates across files name both")
func folderLoading() throws {
    let dir = try TemporaryDirectory()
    func feature(_ id: String) -> String {
        #"{"type":"Feature","id":"\#(id)","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"radius":9}}"#
    }
    try dir.write("b.geojson", #"{"type":"FeatureCollection","features":[\#(feature("b1")),\#(feature("b2"))]}"#)
    try dir.write("a.json", feature("a1"))
    try dir.write("a.metadata.json", #"{"locationName":"nowhere"}"#)
    try dir.write("notes.txt", "not a region")
    #expect(try GeoJSONRegionLoader.load(paths: [dir.url.path]).map(\.identifier) == ["a1", "b1", "b2"])

    try dir.write("c.geojson", "{\"type\":\"FeatureCollection\",\"features\":[\n" + feature("b2") + "]}")
    do {
        _ = try GeoJSONRegionLoader.load(paths: [dir.url.path])
        Issue.record("loaded a duplicate")
    } catch {
        #expect(error.code == .duplicateIdentifier)
        #expect(error.location == SourceLocation(file: dir.path("c.geojson"), line: 2, column: 24))
        #expect(error.message.contains("first used by features[1] at \(dir.path("b.geojson")):1:"), "\(error.message)")
    }
    do {
        _ = try GeoJSONRegionLoader.load(paths: [dir.path("missing.geojson")])
        Issue.record("loaded a missing file")
    } catch {
        #expect(error.code == .unreadable)
        #expect(error.description == "\(dir.path("missing.geojson")): no such file or folder")
    }
}
