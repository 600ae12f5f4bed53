import GRDB
import WaymarkCore

extension WaymarkStore {
    /// The event with row id `id`, or nil when there is none (or it was pruned).
    public func event(id: Int64) throws -> StoredEvent? {
        do {
            return try database.read { db in
                try Row.fetchOne(
                    db, sql: "SELECT \(Self.eventColumns) FROM events WHERE id = ?", arguments: [id]
                ).map(Self.storedEvent)
            }
        } catch {
            throw storeError(error, doing: "reading event \(id)")
        }
    }

    /// A device's fixes with `from` ≤ time < `to`, in the order they were recorded (the order
    /// the daemon's pipeline saw them, a late fix after those recorded before it): one range scan
    /// of the fixes' time index (`fixes_by_time`) with the device as a filter, so reading a few
    /// minutes costs the same in a history of a million fixes as in one of a thousand
    /// (BENCHMARKS.md, explain).
    public func fixes(device: String, from: Timestamp, to: Timestamp) throws -> [Fix] {
        var fixes: [StoredFix] = []
        try history(HistoryQuery(from: from, to: to, kinds: [.fix], devices: [device])) { item in
            if case .fix(let stored) = item { fixes.append(stored) }
        }
        return fixes.sorted { $0.id < $1.id }.map(\.fix)
    }

    /// A device's events of the region `region` with `from` ≤ time < `to`, the latest first, at
    /// most `limit` (a range scan of `events_by_time`, read backwards).
    public func regionEvents(device: String, region: String, from: Timestamp, to: Timestamp, limit: Int) throws -> [StoredEvent] {
        do {
            return try database.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT \(Self.eventColumns) FROM events
                        WHERE time_ns >= ? AND time_ns < ? AND device = ? AND region = ?
                        ORDER BY time_ns DESC, id DESC LIMIT ?
                        """,
                    arguments: [from.nanosecondsSince1970, to.nanosecondsSince1970, device, region, limit]
                ).map(Self.storedEvent)
            }
        } catch {
            throw storeError(error, doing: "reading the events of region \(region)")
        }
    }

    static let eventColumns = "id, time_ns, kind, region, transition, latitude, longitude, record, device, import_id"
}
