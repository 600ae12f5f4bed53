import Foundation
import GRDB
import Testing
import WaymarkCore
import WaymarkRegions
import WaymarkTestSupport

@testable import WaymarkStore

@Suite struct HistoryMigrationTests {
    @Test func aVersionOneDatabaseUpgradesKeepingItsRegions() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("v1.sqlite")
        // A database as the v1 store left it: SpatiaLite metadata, v1-regions only, one region.
        do {
            let pool = try DatabasePool(
                path: path, configuration: WaymarkStore.configuration(spatialiteModule: "mod_spatialite", logger: quietLogger))
            let initialised = try pool.writeWithoutTransaction { try Int.fetchOne($0, sql: "SELECT InitSpatialMetadata(1)") }
            #expect(initialised == 1)
            try WaymarkStore.migrator.migrate(pool, upTo: "v1-regions")
            try pool.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO regions (identifier, kind, radius, imported_at, geometry)
                        VALUES ('eiffel', 'circle', 100, '2024-01-01T00:00:00Z', MakePoint(2.294481, 48.85837, 4326))
                        """)
            }
            #expect(try pool.read { try $0.tableExists("fixes") } == false)
        }

        let (logger, log) = RecordingLogHandler.logger()
        let store = try WaymarkStore(path: path, logger: logger)
        #expect(try store.appliedMigrations() == allMigrations)
        #expect(log.messages.filter { $0 == "Applied migration" }.count == allMigrations.count - 1)  // all but v1
        #expect(!log.messages.contains("Initialised SpatiaLite metadata"))
        #expect(
            try store.regions() == [
                Region(identifier: "eiffel", shape: .circle(center: Coordinate(latitude: 48.85837, longitude: 2.294481), radius: 100))
            ])
        try store.recordFix(HistorySample.fullFix, source: "s")
        #expect(try store.historyCountList() == [1, 0, 0])
        let checks = try store.database.writeWithoutTransaction { db in
            try ["regions", "fixes"].map { try Int.fetchOne(db, sql: "SELECT CheckSpatialIndex(?, 'geometry')", arguments: [$0]) }
        }
        // Regions keep their spatial index; the history's was dropped by v8-fixes-append (nil: none to check).
        #expect(checks == [1, nil])
    }

    @Test func aNewStoreHasBothMigrationsInOrder() throws {
        let store = try WaymarkStore.temporary(logger: quietLogger)
        #expect(try store.appliedMigrations() == allMigrations)
        try store.recordFix(HistorySample.fullFix, source: "memory")
        #expect(try store.lastFix()?.fix == HistorySample.fullFix)
    }
}
