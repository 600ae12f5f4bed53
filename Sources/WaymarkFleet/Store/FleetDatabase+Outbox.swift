import Foundation
import PostgresNIO
import WaymarkCore

extension FleetDatabase {
    /// Marks events as published on the bus. `times` bounds them, so only the days' tables
    /// holding them are touched.
    func markPublished(_ events: [FleetBatch.StoredEvent]) async throws {
        guard let first = events.map(\.time).min(), let last = events.map(\.time).max() else { return }
        let ids = events.map(\.id)
        try await client.query(
            """
            UPDATE events SET published = true
            WHERE id = ANY(\(ids)::text[]) AND time BETWEEN \(first.date) AND \(last.date)
            """, logger: logger)
    }

    /// Events committed and not yet published, of the devices `belongs` accepts, in the order
    /// they happened per device.
    func unpublishedEvents(where belongs: (String) -> Bool) async throws -> [FleetBatch.StoredEvent] {
        var events: [FleetBatch.StoredEvent] = []
        let rows = try await client.query(
            """
            SELECT id, device, time, kind, region, sequence, record FROM events WHERE NOT published
            ORDER BY device, sequence, split_part(id, '/', 3)::int
            """, logger: logger)
        for try await (id, device, time, kind, region, sequence, record) in rows.decode((String, String, Date, String, String?, Int64, String).self)
        where belongs(device) {
            events.append(
                FleetBatch.StoredEvent(
                    id: id, device: device, time: Timestamp(date: time), kind: kind, region: region, sequence: sequence, record: record))
        }
        return events
    }
}
