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

        /// The monitors every device of the worker copies, built with the worker's settings.
        init(regions: [Region], version: Int64, settings: PipelineSettings) {
            self.init(monitors: RegionMonitors(regions, settings: settings), version: version, count: regions.count)
        }

        init(monitors: RegionMonitors, version: Int64, count: Int) {
            self.monitors = monitors
            self.version = version
            self.count = count
        }
    }

    private let database: FleetDatabase
    /// The pipeline settings of this worker (`--config`, docs/fleet.md): every monitor is built with them.
    private let settings: PipelineSettings
    private let logger: Logger
    private(set) var current: Snapshot

    init(database: FleetDatabase, settings: PipelineSettings, logger: Logger) async throws {
        self.database = database
        self.settings = settings
        self.logger = logger
        current = try await Self.load(database, settings: settings)
        logger.notice("regions loaded", metadata: ["regions": "\(current.count)", "version": "\(current.version)"])
    }

    /// Reloads if the database holds a newer version; returns the version now run.
    @discardableResult
    func refresh() async throws -> Int64 {
        // The version first: decoding every region again is for when they changed.
        guard try await database.regionsVersion() != current.version else { return current.version }
        let snapshot = try await Self.load(database, settings: settings)
        if snapshot.version != current.version {
            current = snapshot
            logger.notice("regions reloaded", metadata: ["regions": "\(snapshot.count)", "version": "\(snapshot.version)"])
        }
        return current.version
    }

    private static func load(_ database: FleetDatabase, settings: PipelineSettings) async throws -> Snapshot {
        let (regions, _, version) = try await database.regions()
        return Snapshot(regions: regions, version: version, settings: settings)
    }
}
