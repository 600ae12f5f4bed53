import Foundation
import PostgresNIO
import WaymarkCore
import WaymarkStore

/// What a query of the fleet's history selects: `from` ≤ time < `to`, these devices (all when
/// nil), at most `limit` of each table, the earliest first.
public struct FleetHistoryQuery: Sendable, Equatable {
    public var from: Timestamp?
    public var to: Timestamp?
    public var devices: Set<String>?
    public var limit: Int?

    public init(from: Timestamp? = nil, to: Timestamp? = nil, devices: Set<String>? = nil, limit: Int? = nil) {
        self.from = from
        self.to = to
        self.devices = devices
        self.limit = limit
    }
}

extension FleetDatabase {
    /// The fleet's fixes as the single daemon's history holds them: the stream sequence as the
    /// row id (negative for imported ones), `network` as the source (every fleet fix came
    /// through a device listener, as a single daemon's network devices' do).
    public func fixes(_ query: FleetHistoryQuery) async throws -> [StoredFix] {
        let (devices, from, to, limit) = Self.bounds(query)
        let rows = try await client.query(
            """
            SELECT device, sequence, time, ST_Y(position), ST_X(position), altitude, accuracy, speed, course FROM fixes
            WHERE (\(devices)::text[] IS NULL OR device = ANY(\(devices)::text[]))
              AND time >= \(from) AND time < \(to)
            ORDER BY time, sequence LIMIT \(limit)
            """, logger: logger)
        return try await Self.storedFixes(rows)
    }

    /// The latest fix of `device` by time, if any.
    public func lastFix(device: String) async throws -> StoredFix? {
        let rows = try await client.query(
            """
            SELECT device, sequence, time, ST_Y(position), ST_X(position), altitude, accuracy, speed, course FROM fixes
            WHERE device = \(device) ORDER BY time DESC, sequence DESC LIMIT 1
            """, logger: logger)
        return try await Self.storedFixes(rows).first
    }

    /// The fleet's events, each with its record as the worker stored it (what `waymark replay`
    /// prints). They have text ids (`StoredEvent.id` stays nil).
    public func events(_ query: FleetHistoryQuery) async throws -> [StoredEvent] {
        let (devices, from, to, limit) = Self.bounds(query)
        let rows = try await client.query(
            """
            SELECT device, time, kind, region, record FROM events
            WHERE (\(devices)::text[] IS NULL OR device = ANY(\(devices)::text[]))
              AND time >= \(from) AND time < \(to)
            ORDER BY time, sequence, id LIMIT \(limit)
            """, logger: logger)
        var events: [StoredEvent] = []
        for try await (device, time, kind, region, record) in rows.decode((String, Date, String, String?, String).self) {
            events.append(FleetEventRecord.storedEvent(device: device, time: Timestamp(date: time), kind: kind, region: region, record: record))
        }
        return events
    }

    /// `device`'s confirmed state of `region` (inside, since when; `inside` nil when none is
    /// stored yet), in one query; nil when there is no such region.
    public func regionState(device: String, region: String) async throws -> (inside: Bool?, since: Timestamp?)? {
        let rows = try await client.query(
            """
            SELECT s.inside, s.since FROM regions r
            LEFT JOIN region_state s ON s.region = r.identifier AND s.device = \(device)
            WHERE r.identifier = \(region)
            """, logger: logger)
        for try await (inside, since) in rows.decode((Bool?, Date?).self) { return (inside, since.map(Timestamp.init(date:))) }
        return nil
    }

    /// How many fixes, events and devices the fleet holds, counted by the database.
    public func historyCounts() async throws -> (fixes: Int, events: Int, devices: Int) {
        let rows = try await client.query(
            "SELECT (SELECT count(*) FROM fixes), (SELECT count(*) FROM events), (SELECT count(*) FROM devices)", logger: logger)
        for try await (fixes, events, devices) in rows.decode((Int, Int, Int).self) { return (fixes, events, devices) }
        return (0, 0, 0)
    }

    /// Each device's newest fix, for the status's per-device activity.
    public func latestFixes() async throws -> [StoredFix] {
        let rows = try await client.query(
            """
            SELECT DISTINCT ON (device) device, sequence, time, ST_Y(position), ST_X(position), altitude, accuracy, speed, course
            FROM fixes ORDER BY device, time DESC, sequence DESC
            """, logger: logger)
        return try await Self.storedFixes(rows)
    }

    private static func bounds(_ query: FleetHistoryQuery) -> (devices: [String]?, from: Date, to: Date, limit: Int) {
        (
            query.devices.map { $0.sorted() }, query.from?.date ?? .distantPast, query.to?.date ?? .distantFuture,
            query.limit ?? Int(Int32.max)
        )
    }

    private static func storedFixes(_ rows: PostgresRowSequence) async throws -> [StoredFix] {
        var fixes: [StoredFix] = []
        for try await (device, sequence, time, latitude, longitude, altitude, accuracy, speed, course)
            in rows.decode((String, Int64, Date, Double, Double, Double?, Double?, Double?, Double?).self)
        {
            let fix = Fix(
                time: Timestamp(date: time), coordinate: Coordinate(latitude: latitude, longitude: longitude), altitude: altitude,
                horizontalAccuracy: accuracy, speed: speed, course: course)
            fixes.append(StoredFix(id: sequence, fix: fix, source: "network", device: device))
        }
        return fixes
    }
}
