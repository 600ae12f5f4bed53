import Logging
import PostgresNIO
import WaymarkPipeline
import WaymarkRegions

/// The regions a worker runs, rebuilt when the database says they changed (LISTEN on
/// `waymark_regions`): every partition of the worker reads the same snapshot, and PostGIS
/// stays off the per-fix path.
actor RegionsBoard {
    struct Snapshot: Sendable {
        var monitors: RegionMonitors
        var version: Int64
        var count: Int
    }

    private let database: FleetDatabase
    private let logger: Logger
    private(set) var current: Snapshot

    init(database: FleetDatabase, logger: Logger) async throws {
        self.database = database
        self.logger = logger
        current = try await Self.load(database)
        logger.notice("regions loaded", metadata: ["regions": "\(current.count)", "version": "\(current.version)"])
    }

    /// Reloads if the database holds a newer version; returns the version now run.
    @discardableResult
    func refresh() async throws -> Int64 {
        // The version first: decoding every region again is for when they changed.
        guard try await database.regionsVersion() != current.version else { return current.version }
        let snapshot = try await Self.load(database)
        if snapshot.version != current.version {
            current = snapshot
            logger.notice("regions reloaded", metadata: ["regions": "\(snapshot.count)", "version": "\(snapshot.version)"])
        }
        return current.version
    }

    /// Waits for change notifications on a connection of its own and calls `changed` after each
    /// reload, until cancelled.
    static func watch(_ address: PostgresAddress, board: RegionsBoard, logger: Logger, changed: @Sendable (Int64) async -> Void) async throws {
        let connection = try await PostgresConnection.connect(configuration: address.connectionConfiguration, id: 2, logger: logger)
        do {
            try await connection.listen(on: FleetDatabase.regionsChannel) { notifications in
                // A change between the first load and LISTEN would otherwise go unseen.
                await changed(try await board.refresh())
                for try await _ in notifications {
                    await changed(try await board.refresh())
                }
            }
        } catch {
            try? await connection.close()
            throw error
        }
        try? await connection.close()
    }

    private static func load(_ database: FleetDatabase) async throws -> Snapshot {
        let (regions, _, version) = try await database.regions()
        return Snapshot(monitors: RegionMonitors(regions), version: version, count: regions.count)
    }
}
