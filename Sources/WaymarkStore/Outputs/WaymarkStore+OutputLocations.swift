import GRDB
import WaymarkCore
import WaymarkOutputs

/// What outputs that publish positions and presence read (docs/outputs.md): the history's
/// fixes after their location cursor, a device's fix at an event, and who is inside a region.
extension WaymarkStore {
    /// Moves the output's location cursor to `sequence` (every fix through it published or passed over).
    public func setOutputLocationCursor(_ name: String, through sequence: Int64) throws {
        try writeOutputs("saving output '\(name)'") { db in
            try db.execute(
                sql: "UPDATE outputs SET locations_through = MAX(locations_through, ?) WHERE name = ?", arguments: [sequence, name])
        }
    }

    /// Up to `limit` fixes after row `sequence`, in order.
    public func outputFixes(after sequence: Int64, limit: Int) throws -> [OutputFix] {
        try readForOutputs("reading fixes for outputs") { db in
            try Row.fetchAll(db, sql: "SELECT \(Self.outputFixColumns) FROM fixes WHERE id > ? ORDER BY id LIMIT ?", arguments: [sequence, limit])
                .map(Self.outputFix)
        }
    }

    /// The device's latest fix at or before `time` (a transition's position and accuracy), nil
    /// when it has none. Walks the time index back from `time`.
    public func fix(of device: String, atOrBefore time: Timestamp) throws -> OutputFix? {
        try readForOutputs("reading a device's fix") { db in
            try Row.fetchOne(
                db, sql: "SELECT \(Self.outputFixColumns) FROM fixes WHERE time_ns <= ? AND device = ? ORDER BY time_ns DESC, id DESC LIMIT 1",
                arguments: [time.nanosecondsSince1970, device]
            ).map(Self.outputFix)
        }
    }

    /// The newest fix's row id, 0 when there is none.
    public func newestFixID() throws -> Int64 {
        try readForOutputs("reading fixes") { db in try Int64.fetchOne(db, sql: "SELECT COALESCE(MAX(id), 0) FROM fixes") ?? 0 }
    }

    /// Every region, geographic and beacon, with its display name (the `name` property) if any.
    public func presenceRegions() throws -> [(identifier: String, name: String?, beacon: Bool)] {
        try readForOutputs("reading regions") { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT identifier, json_extract(properties, '$.name') AS name, 0 AS beacon FROM regions
                    UNION ALL SELECT identifier, json_extract(properties, '$.name'), 1 FROM beacon_regions ORDER BY identifier
                    """
            ).map { row in
                let name: DatabaseValue = row["name"]
                return (row["identifier"], String.fromDatabaseValue(name), row["beacon"])
            }
        }
    }

    /// The devices whose saved state is inside the region (geographic or beacon), sorted. A
    /// device without a saved state for it is outside (states are sparse: docs/devices.md).
    public func devicesInside(region identifier: String) throws -> [String] {
        try readForOutputs("reading region states") { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT device FROM region_state WHERE identifier = ?1 AND inside = 1
                    UNION SELECT device FROM beacon_region_state WHERE identifier = ?1 AND inside = 1 ORDER BY device
                    """,
                arguments: [identifier])
        }
    }

    private static let outputFixColumns = "id, device, time_ns, latitude, longitude, horizontal_accuracy, hdop, altitude, speed, course"

    private static func outputFix(_ row: Row) -> OutputFix {
        OutputFix(
            sequence: row["id"], device: row["device"], time: Timestamp(nanosecondsSince1970: row["time_ns"]),
            coordinate: Coordinate(latitude: row["latitude"], longitude: row["longitude"]), accuracy: row["horizontal_accuracy"],
            hdop: row["hdop"], altitude: row["altitude"], speed: row["speed"], course: row["course"])
    }

    private func readForOutputs<T>(_ doing: String, _ body: (Database) throws -> T) throws -> T {
        do {
            return try database.read(body)
        } catch {
            throw StoreError(code: .database, message: "\(doing): \(Self.describe(error))", path: path)
        }
    }
}
