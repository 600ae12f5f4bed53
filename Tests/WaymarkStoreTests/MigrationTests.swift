import Foundation
import GRDB
import Testing
import WaymarkTestSupport

@testable import WaymarkStore

@Suite struct MigrationTests {
    @Test func reopeningRunsNoMigrationTwice() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("regions.sqlite")
        let (firstLogger, firstLog) = RecordingLogHandler.logger()
        do {
            let store = try WaymarkStore(path: path, logger: firstLogger)
            try store.importRegions(Sample.all, replace: false)
            #expect(try store.appliedMigrations() == allMigrations)
        }
        #expect(firstLog.messages.filter { $0 == "Applied migration" }.count == allMigrations.count)
        #expect(firstLog.messages.contains("Initialised SpatiaLite metadata"))

        let (secondLogger, secondLog) = RecordingLogHandler.logger()
        let store = try WaymarkStore(path: path, logger: secondLogger)
        #expect(!secondLog.messages.contains("Applied migration"))
        #expect(!secondLog.messages.contains("Initialised SpatiaLite metadata"))
        #expect(try store.appliedMigrations() == allMigrations)
        let (recorded, geometryColumns) = try store.database.read { db in
            (
                try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"),
                try Int.fetchOne(db, sql: "SELECT count(*) FROM geometry_columns WHERE f_table_name = 'regions'")
            )
        }
        #expect(recorded == allMigrations)
        #expect(geometryColumns == 1)
        #expect(try store.regionCount() == 3)
    }

    @Test func opensAFileThatSpatiaLitesOwnToolCreated() async throws {
        // The `spatialite` tool initialises metadata in a new file; the store must not try again.
        let folder = try TemporaryDirectory()
        let path = folder.path("made-by-cli.sqlite")
        let made = try await spatialiteCLI(path, "SELECT count(*) FROM spatial_ref_sys WHERE srid = 4326")
        #expect(made.stdoutLines == ["1"], "\(made.stderr)")
        let (logger, log) = RecordingLogHandler.logger()
        let store = try WaymarkStore(path: path, logger: logger)
        #expect(!log.messages.contains("Initialised SpatiaLite metadata"))
        #expect(log.messages.contains("Applied migration"))
        try store.importRegions(Sample.all, replace: false)
        #expect(try store.regions().count == 3)
    }

    @Test func temporaryStoreHasTheSameSchema() throws {
        let store = try WaymarkStore.temporary(logger: quietLogger)
        #expect(store.path == nil)
        #expect(try store.appliedMigrations() == allMigrations)
        try store.importRegions(Sample.all, replace: false)
        #expect(try store.regions() == [Sample.eiffel, Sample.islands, Sample.parkWithPond])
    }
}
