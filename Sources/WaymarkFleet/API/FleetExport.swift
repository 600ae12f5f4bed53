import Logging
import WaymarkAPI
import WaymarkCore
import WaymarkStore

/// `GET /v1/export` on an api node: the device's fixes and events in the range and the fleet's
/// regions are copied from PostgreSQL into a scratch Waymark store, and the single daemon's
/// export (`HistoryExport`, the code of `waymark export --db`) runs over it, so both write the
/// same files from the same history.
enum FleetExport {
    static func bytes(_ request: ExportRequest, database: FleetDatabase, logger: Logger) async throws -> [UInt8] {
        let query = FleetHistoryQuery(from: request.from, to: request.to, devices: [request.device])
        let fixes = try await database.fixes(query)
        let events = try await database.events(query)
        let regions = try await database.regions().regions
        return try await ScratchStore.with(logger: logger) { scratch in
            let path = scratch.path
            return try await scratch.store.offPool { store in
                try store.importRegions(regions, replace: true, skipInvalid: true)
                _ = try store.recordFixes(fixes.map(\.fix), source: "network", device: request.device)
                for event in events { _ = try store.recordEvent(event) }
                return try HistoryExport.bytes(database: path, request: request, logger: logger)
            }
        }
    }
}
