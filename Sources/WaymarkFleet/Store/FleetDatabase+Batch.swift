import Foundation
import PostgresNIO
import WaymarkCore

extension FleetDatabase {
    /// Writes `batch` in one transaction: fixes and events (a redelivered one is already there
    /// and is skipped), region states, established moments and the devices' last sequences.
    func write(_ batch: FleetBatch) async throws {
        guard !batch.isEmpty else { return }
        try await ensureDayPartitions(batch.days)
        try await client.withTransaction(logger: logger) { connection in
            try await insertFixes(batch.fixes, connection)
            for event in batch.events {
                try await connection.query(
                    """
                    INSERT INTO events (id, device, time, kind, region, sequence, record, published)
                    VALUES (\(event.id), \(event.device), \(event.time.date), \(event.kind), \(event.region),
                        \(event.sequence), \(event.record), \(batch.eventsPublished))
                    ON CONFLICT DO NOTHING
                    """, logger: logger)
            }
            for (device, states) in batch.states {
                for state in states.values {
                    try await connection.query(
                        """
                        INSERT INTO region_state (device, region, inside, since, dwelled, last_seen)
                        SELECT \(device), \(state.identifier), \(state.inside), \(state.since?.date), \(state.dwelled), \(state.lastSeen?.date)
                        WHERE EXISTS (SELECT 1 FROM regions WHERE identifier = \(state.identifier))
                        ON CONFLICT (device, region) DO UPDATE SET inside = excluded.inside, since = excluded.since,
                            dwelled = excluded.dwelled, last_seen = excluded.last_seen
                        """, logger: logger)
                }
            }
            for (device, sequence) in batch.lastSequence {
                let established = batch.established[device]
                try await connection.query(
                    """
                    INSERT INTO device_state (device, last_sequence, established_since, established_written, updated_at)
                    VALUES (\(device), \(Int64(sequence)), \(established?.since?.date),
                        CASE WHEN \(established != nil) THEN now() END, now())
                    ON CONFLICT (device) DO UPDATE SET last_sequence = excluded.last_sequence, updated_at = now(),
                        established_since = CASE WHEN \(established != nil) THEN excluded.established_since
                            ELSE device_state.established_since END,
                        established_written = COALESCE(excluded.established_written, device_state.established_written)
                    """, logger: logger)
            }
        }
    }

    /// All of a batch's fixes in one statement: arrays unnested server-side. Missing values
    /// travel as NaN and are stored as NULL.
    private func insertFixes(_ fixes: [FleetBatch.StoredFix], _ connection: PostgresConnection) async throws {
        guard !fixes.isEmpty else { return }
        let devices = fixes.map(\.device)
        let sequences = fixes.map(\.sequence)
        let times = fixes.map(\.time.date)
        let longitudes = fixes.map(\.fix.coordinate.longitude)
        let latitudes = fixes.map(\.fix.coordinate.latitude)
        let altitudes = fixes.map { $0.fix.altitude ?? .nan }
        let accuracies = fixes.map { $0.fix.horizontalAccuracy ?? .nan }
        let speeds = fixes.map { $0.fix.speed ?? .nan }
        let courses = fixes.map { $0.fix.course ?? .nan }
        // An unknown queue time travels as the epoch and is stored as NULL.
        let queued = fixes.map { ($0.queuedAt ?? Timestamp(nanosecondsSince1970: 0)).date }
        try await connection.query(
            """
            INSERT INTO fixes (device, sequence, time, position, altitude, accuracy, speed, course, queued_at)
            SELECT d, s, t, ST_SetSRID(ST_MakePoint(x, y), 4326), NULLIF(a, 'NaN'), NULLIF(h, 'NaN'), NULLIF(v, 'NaN'),
                NULLIF(c, 'NaN'), NULLIF(q, 'epoch')
            FROM unnest(\(devices)::text[], \(sequences)::int8[], \(times)::timestamptz[], \(longitudes)::float8[],
                \(latitudes)::float8[], \(altitudes)::float8[], \(accuracies)::float8[], \(speeds)::float8[],
                \(courses)::float8[], \(queued)::timestamptz[]) AS f (d, s, t, x, y, a, h, v, c, q)
            ON CONFLICT DO NOTHING
            """, logger: logger)
    }

    /// Makes the history tables of `days` (days since 1970, UTC) that do not exist yet, one
    /// node at a time (an advisory lock): history is partitioned by day so that dropping old
    /// history is dropping tables.
    private func ensureDayPartitions(_ days: Set<Int64>) async throws {
        let missing = days.subtracting(knownDays.days)
        guard !missing.isEmpty else { return }
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(FleetSchema.lockClass), -1)", logger: logger)
            for day in missing.sorted() {
                let from = Self.dayText(day)
                let to = Self.dayText(day + 1)
                let suffix = from.replacingOccurrences(of: "-", with: "")
                for table in ["fixes", "events"] {
                    _ = try await connection.query(
                        """
                        CREATE TABLE IF NOT EXISTS \(unescaped: table)_\(unescaped: suffix) PARTITION OF \(unescaped: table)
                        FOR VALUES FROM ('\(unescaped: from) 00:00:00+00') TO ('\(unescaped: to) 00:00:00+00')
                        """, logger: logger)
                }
            }
        }
        knownDays.add(missing)
    }

    /// `YYYY-MM-DD` of a day since 1970 (UTC).
    static func dayText(_ day: Int64) -> String {
        let date = CivilDate.civil(days: Int(day))
        return String(format: "%04d-%02d-%02d", date.year, date.month, date.day)
    }
}
