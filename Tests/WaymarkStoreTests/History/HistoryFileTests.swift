import Foundation
import GRDB
import Testing
import WaymarkCore
import WaymarkTestSupport

@testable import WaymarkStore

/// The history is an ordinary SpatiaLite layer that GIS tools open.
@Suite struct HistoryFileTests {
    @Test func ogrinfoSeesTheFixesLayerWithItsFeatureCountAndWGS84() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("history.sqlite")
        do {
            let store = try WaymarkStore(path: path, logger: quietLogger)
            try store.recordFixes((0..<7).map(HistoryWriterDrill.fix), source: "drill")
        }
        let info = try await runProcess(URL(fileURLWithPath: "/usr/bin/ogrinfo"), ["-ro", "-so", path, "fixes"])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdoutLines.contains("Layer name: fixes"))
        #expect(info.stdoutLines.contains("Geometry: Point"))
        #expect(info.stdoutLines.contains("Feature Count: 7"))
        #expect(info.stdout.contains(#"ID["EPSG",4326]"#))
        #expect(info.stdoutLines.contains("Geometry Column NOT NULL = geometry"))
        #expect(info.stdoutLines.contains("source: String (0.0) NOT NULL"))
        #expect(info.stdoutLines.contains("FID Column = id"))
        #expect(info.stdoutLines.contains("time_ns: Integer (0.0) NOT NULL"))
    }

    @Test func spatialiteSeesPointsThatMatchTheCoordinates() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("history.sqlite")
        do {
            let store = try WaymarkStore(path: path, logger: quietLogger)
            try store.recordFix(HistorySample.fullFix, source: "s")
        }
        let result = try await spatialiteCLI(
            path,
            "SELECT ST_AsText(geometry), ST_SRID(geometry), (SELECT spatial_index_enabled FROM geometry_columns WHERE f_table_name = 'fixes') FROM fixes")
        // A POINT layer without a spatial index: history is read by time (docs/durability.md, v8-fixes-append).
        #expect(result.stdoutLines == ["POINT(-118.7 34.1)|4326|0"], "\(result.stderr)")
    }

    @Test func aGeometryThatIsNotTheRowsCoordinateIsRefused() throws {
        let store = try WaymarkStore.temporary(logger: quietLogger)
        #expect(throws: DatabaseError.self) {
            try store.database.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO fixes (time_ns, latitude, longitude, source, geometry)
                        VALUES (0, 10, 20, 's', MakePoint(20, 11, 4326))
                        """)
            }
        }
    }
}
