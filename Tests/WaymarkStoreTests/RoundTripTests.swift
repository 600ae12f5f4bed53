import Foundation
import GRDB
import Testing
import WaymarkCore
import WaymarkRegions
import WaymarkTestSupport

@testable import WaymarkStore

@Suite struct RoundTripTests {
    @Test func importReopenAndLoadGiveBackTheSameRegions() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("regions.sqlite")
        do {
            let store = try WaymarkStore(path: path, logger: quietLogger)
            let report = try store.importRegions(Sample.all, replace: false)
            #expect(report.inserted == ["park-with-pond", "islands", "eiffel"])
            #expect(report.replaced.isEmpty && report.rejected.isEmpty)
        }
        let reopened = try WaymarkStore(path: path, logger: quietLogger)
        // Identifier order, each region equal to what went in, coordinate for coordinate.
        #expect(try reopened.regions() == [Sample.eiffel, Sample.islands, Sample.parkWithPond])
        #expect(try reopened.regionCount() == 3)
        #expect(try reopened.region(identifier: "islands") == Sample.islands)
        #expect(try reopened.region(identifier: "absent") == nil)
    }

    @Test func storesCirclesAsPointsAndPolygonsAsMultiPolygons() throws {
        let store = try WaymarkStore.temporary(logger: quietLogger)
        try store.importRegions(Sample.all, replace: false)
        let rows = try store.database.read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT identifier, kind, radius, GeometryType(geometry) AS type, ST_SRID(geometry) AS srid FROM regions ORDER BY identifier")
        }
        #expect(rows.map { $0["identifier"] as String } == ["eiffel", "islands", "park-with-pond"])
        #expect(rows.map { $0["kind"] as String } == ["circle", "polygon", "polygon"])
        #expect(rows.map { $0["radius"] as Double? } == [100, nil, nil])
        #expect(rows.map { $0["type"] as String } == ["POINT", "MULTIPOLYGON", "MULTIPOLYGON"])
        #expect(rows.map { $0["srid"] as Int } == [4326, 4326, 4326])
        // The hole is a hole to SpatiaLite too: area 1 − 0.04 square degrees.
        let area = try store.database.read {
            try Double.fetchOne($0, sql: "SELECT ST_Area(geometry) FROM regions WHERE identifier = 'park-with-pond'")
        }
        #expect(abs((area ?? 0) - 0.96) < 1e-9)
    }

    @Test func removeRegionDeletesItAndItsIndexEntry() throws {
        let store = try WaymarkStore.temporary(logger: quietLogger)
        try store.importRegions(Sample.all, replace: false)
        #expect(try store.removeRegion(identifier: "islands"))
        #expect(try !store.removeRegion(identifier: "islands"))
        #expect(try store.regionCount() == 2)
        #expect(try store.region(identifier: "islands") == nil)
        let indexed = try store.database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM idx_regions_geometry") }
        #expect(indexed == 2)
    }

    @Test func schemaRejectsRowsThatBreakItsInvariants() throws {
        let store = try WaymarkStore.temporary(logger: quietLogger)
        let point = "GeomFromText('POINT(2 48)', 4326)"
        let square = "GeomFromText('MULTIPOLYGON(((0 0,1 0,1 1,0 1,0 0)))', 4326)"
        let bad = [
            "('c', 'circle', 0, NULL, 'now', \(point))",  // radius must be > 0
            "('c', 'circle', NULL, NULL, 'now', \(point))",  // a circle needs a radius
            "('p', 'polygon', 5, NULL, 'now', \(square))",  // a polygon has none
            "('c', 'circle', 5, NULL, 'now', \(square))",  // a circle is a POINT
            "('p', 'polygon', NULL, NULL, 'now', \(point))",  // a polygon is a MULTIPOLYGON
            "('p', 'polygon', NULL, '{not json', 'now', \(square))",
            "('p', 'polygon', NULL, NULL, 'now', NULL)",
            "('p', 'polygon', NULL, NULL, 'now', GeomFromText('MULTIPOLYGON(((0 0,1 0,1 1,0 1,0 0)))', 3857))",
        ]
        for values in bad {
            #expect(throws: DatabaseError.self, "\(values)") {
                try store.database.write { db in
                    try db.execute(
                        sql: "INSERT INTO regions (identifier, kind, radius, properties, imported_at, geometry) VALUES \(values)")
                }
            }
        }
        #expect(try store.regionCount() == 0)
    }
}
