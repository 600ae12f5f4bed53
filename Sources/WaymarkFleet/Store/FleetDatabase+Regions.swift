import Foundation
import PostgresNIO
import WaymarkCore
import WaymarkGeoJSON
import WaymarkRegions

extension FleetDatabase {
    /// The notification channel workers listen on; its payload is the new regions version.
    static let regionsChannel = "waymark_regions"

    /// Adds `regions`, replacing those of the same identifier (whose per-device states then
    /// start over, as in the single daemon), bumps the regions version and notifies every
    /// worker, in one transaction. Returns the new version.
    @discardableResult
    public func importRegions(_ regions: [Region]) async throws -> Int64 {
        try await client.withTransaction(logger: logger) { connection in
            for region in regions {
                let feature = region.geoJSONFeature
                try await connection.query(
                    """
                    DELETE FROM region_state WHERE region = \(region.identifier)
                      AND EXISTS (SELECT 1 FROM regions WHERE identifier = \(region.identifier) AND feature <> \(feature)::jsonb)
                    """, logger: logger)
                try await connection.query(
                    """
                    INSERT INTO regions (identifier, feature, imported_at)
                    VALUES (\(region.identifier), \(feature)::jsonb, now())
                    ON CONFLICT (identifier) DO UPDATE SET feature = excluded.feature,
                        imported_at = CASE WHEN regions.feature = excluded.feature THEN regions.imported_at ELSE now() END
                    """, logger: logger)
                try await connection.query("\(unescaped: Self.setGeometry) WHERE identifier = \(region.identifier)", logger: logger)
            }
            return try await Self.bumpRegionsVersion(connection, logger: logger)
        }
    }

    /// Removes the regions named; returns how many there were.
    public func removeRegions(_ identifiers: [String]) async throws -> Int {
        try await client.withTransaction(logger: logger) { connection in
            var removed = 0
            for identifier in identifiers {
                let rows = try await connection.query("DELETE FROM regions WHERE identifier = \(identifier) RETURNING 1", logger: logger)
                for try await _ in rows { removed += 1 }
            }
            try await Self.bumpRegionsVersion(connection, logger: logger)
            return removed
        }
    }

    /// The current regions version, without reading the regions.
    public func regionsVersion() async throws -> Int64 {
        var version: Int64 = 0
        for try await value in try await client.query(Self.versionQuery, logger: logger).decode(Int64.self) { version = value }
        return version
    }

    /// The regions version: the sequence's last value, 0 before the first import.
    private static let versionQuery: PostgresQuery = "SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM regions_version"

    /// Every region, decoded from its stored feature, with when it was imported and the
    /// regions version it belongs to (read in one snapshot).
    public func regions() async throws -> (regions: [Region], importedAt: [String: Timestamp], version: Int64) {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ", logger: logger)
            var version: Int64 = 0
            for try await value in try await connection.query(Self.versionQuery, logger: logger).decode(Int64.self) { version = value }
            var regions: [Region] = []
            var importedAt: [String: Timestamp] = [:]
            let decoder = GeoJSONRegionDecoder()
            let rows = try await connection.query("SELECT identifier, feature::text, imported_at FROM regions ORDER BY identifier", logger: logger)
            for try await (identifier, feature, imported) in rows.decode((String, String, Date).self) {
                do {
                    regions += try decoder.decode(Array(feature.utf8), file: "regions[\(identifier)]").map(\.region)
                } catch {
                    throw FleetError("region '\(identifier)' in \(address) is not a region Waymark reads: \(error)")
                }
                importedAt[identifier] = Timestamp(date: imported)
            }
            return (regions, importedAt, version)
        }
    }

    @discardableResult
    static func bumpRegionsVersion(_ connection: PostgresConnection, logger: Logger) async throws -> Int64 {
        var version: Int64 = 0
        for try await value in try await connection.query("SELECT nextval('regions_version')", logger: logger).decode(Int64.self) {
            version = value
        }
        try await connection.query("SELECT pg_notify(\(regionsChannel), \(String(version)))", logger: logger)
        return version
    }

    /// Sets `geom` from the stored feature: a circle (a Point with a radius) becomes a geodesic
    /// buffer, computed on geography; a beacon region (null geometry) has none.
    private static let setGeometry = """
        UPDATE regions SET geom = CASE
            WHEN jsonb_typeof(feature -> 'geometry') <> 'object' THEN NULL
            WHEN feature -> 'geometry' ->> 'type' = 'Point' THEN ST_Buffer(
                ST_SetSRID(ST_GeomFromGeoJSON((feature -> 'geometry')::text), 4326)::geography,
                (feature -> 'properties' ->> 'radius')::float8)::geometry
            ELSE ST_SetSRID(ST_GeomFromGeoJSON((feature -> 'geometry')::text), 4326)
        END
        """
}
