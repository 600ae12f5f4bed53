import Logging
import PostgresNIO

/// Follows the fleet's regions (docs/fleet.md, "Regions"): `LISTEN waymark_regions` on a
/// connection of its own, calling `refresh` once at the start (a change between a first load and
/// the LISTEN would otherwise go unseen) and after each notification, then `changed` with the
/// version `refresh` returns; until cancelled.
enum RegionsWatch {
    static func run(
        _ address: PostgresAddress, logger: Logger, refresh: @Sendable () async throws -> Int64, changed: @Sendable (Int64) async -> Void
    ) async throws {
        let connection = try await PostgresConnection.connect(configuration: address.connectionConfiguration, id: 2, logger: logger)
        do {
            try await connection.listen(on: FleetDatabase.regionsChannel) { notifications in
                await changed(try await refresh())
                for try await _ in notifications {
                    await changed(try await refresh())
                }
            }
        } catch {
            try? await connection.close()
            throw error
        }
        try? await connection.close()
    }
}
