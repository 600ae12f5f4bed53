import Foundation
import GRDB
import Testing
import WaymarkCore
import WaymarkRegions
import WaymarkTestSupport

@testable import WaymarkStore

/// The store's file is an ordinary SpatiaLite database that the standard tools read.
@Suite struct SpatiaLiteFileTests {
    @Test func spatialiteCommandLineReadsTheRegions() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("regions.sqlite")
        do {
            let store = try WaymarkStore(path: path, logger: quietLogger)
            try store.importRegions(Sample.all, replace: false)
        }
        let count = try await spatialiteCLI(path, "SELECT count(*) FROM regions")
        #expect(count.status == 0, "\(count.stderr)")
        #expect(count.stdoutLines == ["3"])
        let index = try await spatialiteCLI(path, "SELECT CheckSpatialIndex('regions', 'geometry')")
        #expect(index.stdoutLines == ["1"], "\(index.stderr)")
        let metadata = try await spatialiteCLI(
            path,
            "SELECT srid, geometry_type, spatial_index_enabled FROM geometry_columns WHERE f_table_name = 'regions'")
        // geometry_type 0 = GEOMETRY (any type), XY; spatial index 1 = R*Tree.
        #expect(metadata.stdoutLines == ["4326|0|1"], "\(metadata.stderr)")
    }

    @Test func ogrinfoSeesTheLayerWithItsFeatureCountAndWGS84() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("regions.sqlite")
        do {
            let store = try WaymarkStore(path: path, logger: quietLogger)
            try store.importRegions(Sample.all, replace: false)
        }
        let info = try await runProcess(URL(fileURLWithPath: "/usr/bin/ogrinfo"), ["-ro", "-so", path, "regions"])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("using driver `SQLite' successful"))
        #expect(info.stdoutLines.contains("Layer name: regions"))
        #expect(info.stdoutLines.contains("Feature Count: 3"))
        #expect(info.stdout.contains(#"ID["EPSG",4326]"#))
        #expect(info.stdoutLines.contains("Geometry Column NOT NULL = geometry"))
        #expect(info.stdoutLines.contains("identifier: String (0.0) UNIQUE NOT NULL"))
    }

    @Test func spatialIndexIsConsistentAfterReplaceAndRemove() throws {
        let folder = try TemporaryDirectory()
        let store = try WaymarkStore(path: folder.path("regions.sqlite"), logger: quietLogger)
        try store.importRegions(Sample.all, replace: false)
        var moved = Sample.islands
        moved.shape = .polygons([Polygon(exterior: rectangle(south: -10, west: 100, north: -9, east: 101))])
        try store.importRegions([moved], replace: true)
        try store.removeRegion(identifier: "eiffel")
        // CheckSpatialIndex writes its verdict into SpatiaLite's tables: not on a reader.
        let check = try store.database.writeWithoutTransaction {
            try Int.fetchOne($0, sql: "SELECT CheckSpatialIndex('regions', 'geometry')")
        }
        #expect(check == 1)
        // The index holds the new bounds, not the old ones.
        let bounds = try store.database.read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT i.xmin, i.ymax FROM idx_regions_geometry AS i JOIN regions AS r ON r.id = i.pkid
                    WHERE r.identifier = 'islands'
                    """)
        }
        #expect(bounds?["xmin"] == 100.0)
        #expect(bounds?["ymax"] == -9.0)
    }

    @Test func filesUseWriteAheadLoggingWithFullSync() throws {
        let folder = try TemporaryDirectory()
        let store = try WaymarkStore(path: folder.path("regions.sqlite"), logger: quietLogger)
        let (mode, sync) = try store.database.writeWithoutTransaction { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA synchronous"))
        }
        #expect(mode == "wal")
        #expect(sync == 2)  // FULL
    }

    /// Releasing memory closes the reader connections and empties caches; the store goes on
    /// reading (a new reader, SpatiaLite loaded again) and writing as before.
    @Test func releasingMemoryKeepsTheStoreWorking() throws {
        let folder = try TemporaryDirectory()
        let store = try WaymarkStore(path: folder.path("regions.sqlite"), logger: quietLogger)
        try store.importRegions(Sample.all, replace: false)
        let before = try store.regions()
        store.releaseMemory()
        #expect(try store.regions() == before)
        let spatial = try store.database.read { db in try Double.fetchOne(db, sql: "SELECT ST_X(MakePoint(8.5, 47.3, 4326))") }
        #expect(spatial == 8.5)
        #expect(try store.removeRegion(identifier: before[0].identifier))
        store.releaseMemory()
        #expect(try store.regions().count == before.count - 1)
    }
}

