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

    private static func load(_ database: FleetDatabase) async throws -> Snapshot {
        let (regions, _, version) = try await database.regions()
        return Snapshot(monitors: RegionMonitors(regions), version: version, count: regions.count)
    }
}
