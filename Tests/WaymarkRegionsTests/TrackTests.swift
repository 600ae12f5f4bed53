import Foundation
import Testing
import WaymarkCore
import WaymarkGeoJSON
import WaymarkRegions
import WaymarkTestSupport

/// The points of a GPX file, read independently of the project's GPX reader with Python's
/// standard library.
func gpxPoints(_ relativePath: String) async throws -> [Fix] {
    let script = """
        import sys, xml.etree.ElementTree as ET
        for e in ET.parse(sys.argv[1]).getroot().iter():
            if e.tag.endswith('}trkpt'):
                print(e.get('lat'), e.get('lon'))
        """
    let result = try await runPython(script, [ProjectPaths.sharedData(relativePath).path])
    try #require(result.status == 0, "\(result.stderr)")
    return result.stdoutLines.enumerated().map { i, line in
        let parts = line.split(separator: " ")
        return Fix(
            time: Timestamp(nanosecondsSince1970: Int64(i) * 1_000_000_000),
            coordinate: Coordinate(latitude: Double(parts[0])!, longitude: Double(parts[1])!))
    }
}

/// tcxtest.gpx drives into the Santa Monica Mountains NRA and out again (MANIFEST).
@Test("tcxtest.gpx against the Natural Earth parks: enter SAMO, exit SAMO, nothing else")
func tcxtestParks() async throws {
    let regions = try GeoJSONRegionLoader.load(
        paths: [ProjectPaths.sharedData("geojson/ne_10m_parks_and_protected_lands_area.json").path],
        idProperty: "unit_code")
    let fixes = try await gpxPoints("gpx/tcxtest.gpx")
    #expect(fixes.count == 1_202)
    var monitor = RegionMonitor(regions: regions)
    var events: [String] = []
    for f in fixes {
        let update = monitor.process(f)
        events += (update.establishedInside ?? []).map { "initial \(regions[Int($0)].identifier)" }
        events += update.transitions.map { "\($0.kind.rawValue) \($0.identifier)" }
    }
    #expect(events == ["enter SAMO", "exit SAMO"])
}
