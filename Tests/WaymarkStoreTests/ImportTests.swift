import Foundation
import Testing
import WaymarkCore
import WaymarkRegions
import WaymarkTestSupport

@testable import WaymarkStore

@Suite struct ImportTests {
    @Test func invalidPolygonRollsBackTheWholeImport() throws {
        let store = try WaymarkStore.temporary(logger: quietLogger)
        try store.importRegions([Sample.eiffel], replace: false)
        let error = #expect(throws: StoreError.self) {
            try store.importRegions([Sample.parkWithPond, Sample.bowTie, Sample.islands], replace: false)
        }
        #expect(error?.code == .invalidRegions)
        #expect(error?.rejected == [RejectedRegion(identifier: "bow-tie", reason: "Self-intersection[0.5 0.5]")])
        #expect(error?.message.contains("bow-tie: Self-intersection[0.5 0.5]") == true)
        #expect(try store.regionCount() == 1)
        #expect(try store.regions() == [Sample.eiffel])
    }

    @Test func skipInvalidImportsTheValidRegionsAndReportsTheRest() throws {
        let store = try WaymarkStore.temporary(logger: quietLogger)
        let report = try store.importRegions(
            [Sample.parkWithPond, Sample.bowTie, Sample.islands], replace: false, skipInvalid: true)
        #expect(report.inserted == ["park-with-pond", "islands"])
        #expect(report.rejected.map(\.identifier) == ["bow-tie"])
        #expect(report.rejected.first?.reason.hasPrefix("Self-intersection") == true)
        #expect(try store.regions().map(\.identifier) == ["islands", "park-with-pond"])
    }

    @Test func everyInvalidRegionIsListedWithItsReason() throws {
        let store = try WaymarkStore.temporary(logger: quietLogger)
        let square = rectangle(south: 0, west: 0, north: 1, east: 1)
        let invalid = [
            Region(identifier: "open-ring", shape: .polygons([Polygon(exterior: Array(square.dropLast()))])),
            Region(identifier: "two-points", shape: .polygons([Polygon(exterior: [square[0], square[1], square[0]])])),
            Region(identifier: "no-polygons", shape: .polygons([])),
            Region(identifier: "zero-radius", shape: .circle(center: square[0], radius: 0)),
            Region(identifier: "nan-radius", shape: .circle(center: square[0], radius: .nan)),
            Region(
                identifier: "off-the-globe",
                shape: .circle(center: Coordinate(latitude: 91, longitude: 0), radius: 10)),
            Region(identifier: "bad-json", shape: .circle(center: square[0], radius: 10), propertiesJSON: "{oops"),
            Region(identifier: "", shape: .circle(center: square[0], radius: 10)),
            Region(
                identifier: "hole-outside",
                shape: .polygons([
                    Polygon(exterior: square, holes: [rectangle(south: 5, west: 5, north: 6, east: 6)])
                ])),
            Region(
                identifier: "overlapping-parts",
                shape: .polygons([
                    Polygon(exterior: square), Polygon(exterior: rectangle(south: 0.5, west: 0.5, north: 2, east: 2)),
                ])),
        ]
        let error = #expect(throws: StoreError.self) { try store.importRegions(invalid, replace: false) }
        #expect(error?.rejected.map(\.identifier) == invalid.map(\.identifier))
        let reasons = Dictionary(uniqueKeysWithValues: (error?.rejected ?? []).map { ($0.identifier, $0.reason) })
        #expect(reasons["open-ring"]?.contains("not closed") == true)
        #expect(reasons["two-points"]?.contains("fewer than 4") == true)
        #expect(reasons["zero-radius"]?.contains("radius") == true)
        #expect(reasons["off-the-globe"]?.contains("WGS84") == true)
        #expect(reasons["bad-json"]?.contains("JSON") == true)
        #expect(reasons["hole-outside"]?.hasPrefix("Hole lies outside shell") == true)
        #expect(reasons["overlapping-parts"]?.hasPrefix("Self-intersection") == true)
        #expect(try store.regionCount() == 0)
    }

    @Test func existingIdentifierWithoutReplaceIsAnErrorNamingIt() throws {
        let store = try WaymarkStore.temporary(logger: quietLogger)
        try store.importRegions([Sample.eiffel, Sample.islands], replace: false)
        var bigger = Sample.eiffel
        bigger.shape = .circle(center: Coordinate(latitude: 48.858_370, longitude: 2.294_481), radius: 250)
        let error = #expect(throws: StoreError.self) {
            try store.importRegions([Sample.parkWithPond, bigger], replace: false)
        }
        #expect(error?.code == .duplicateIdentifier)
        #expect(error?.identifiers == ["eiffel"])
        #expect(error?.message.contains("eiffel") == true)
        #expect(try store.regions() == [Sample.eiffel, Sample.islands])
    }

    @Test func replaceUpdatesTheStoredRegion() throws {
        let store = try WaymarkStore.temporary(logger: quietLogger)
        try store.importRegions([Sample.eiffel, Sample.islands], replace: false)
        // The circle becomes a polygon: kind, radius and geometry all change.
        let reshaped = Region(
            identifier: "eiffel",
            shape: .polygons([Polygon(exterior: rectangle(south: 48.85, west: 2.29, north: 48.86, east: 2.30))]),
            propertiesJSON: nil)
        let report = try store.importRegions([reshaped, Sample.parkWithPond], replace: true)
        #expect(report.replaced == ["eiffel"])
        #expect(report.inserted == ["park-with-pond"])
        #expect(try store.region(identifier: "eiffel") == reshaped)
        #expect(try store.regionCount() == 3)
    }

    @Test func repeatedIdentifierWithinOneImportIsAnError() throws {
        let store = try WaymarkStore.temporary(logger: quietLogger)
        let error = #expect(throws: StoreError.self) {
            try store.importRegions([Sample.eiffel, Sample.islands, Sample.eiffel], replace: true)
        }
        #expect(error?.code == .duplicateIdentifier)
        #expect(error?.identifiers == ["eiffel"])
        #expect(try store.regionCount() == 0)
    }

    @Test func importRecordsItsTime() throws {
        let store = try WaymarkStore.temporary(logger: quietLogger)
        let at = try #require(Timestamp(rfc3339: "2026-03-01T12:00:00Z"))
        try store.importRegions([Sample.eiffel], replace: false, importedAt: at)
        let stored = try store.database.read { try String.fetchOne($0, sql: "SELECT imported_at FROM regions") }
        #expect(stored.flatMap { Timestamp(rfc3339: $0) } == at)
    }
}
