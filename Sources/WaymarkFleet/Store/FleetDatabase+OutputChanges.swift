import Foundation
import PostgresNIO
import WaymarkCore
import WaymarkOutputs
import WaymarkStore

extension FleetDatabase {
    /// Adds an output; an output node takes it within a second and delivers the events
    /// committed from its creation time on (docs/fleet.md, "Outputs"). Throws
    /// `StoreError.duplicateIdentifier` when the name is taken.
    public func addOutput(_ output: Output) async throws -> Output {
        let filter = String(decoding: try JSONEncoder().encode(output.filter), as: UTF8.self)
        let rows = try await client.query(
            """
            INSERT INTO outputs (name, kind, url, format, secret, filter, keep_seconds, location_seconds, disabled, created_at)
            VALUES (\(output.name), \(output.kind.name), \(output.kind.url), \(output.format.rawValue), \(output.secret),
                \(filter)::jsonb, \(output.keepSeconds), \(output.locationSeconds), \(output.disabled), \(output.createdAt.date))
            ON CONFLICT (name) DO NOTHING RETURNING 1
            """, logger: logger)
        var inserted = false
        for try await _ in rows { inserted = true }
        guard inserted else { throw StoreError(code: .duplicateIdentifier, message: "an output named '\(output.name)' exists") }
        return output
    }

    /// Removes an output and its dead letters (its node stops its consumer at its next look);
    /// false when there was none.
    public func removeOutput(name: String) async throws -> Bool {
        var removed = false
        for try await _ in try await client.query("DELETE FROM outputs WHERE name = \(name) RETURNING 1", logger: logger) { removed = true }
        return removed
    }
}
