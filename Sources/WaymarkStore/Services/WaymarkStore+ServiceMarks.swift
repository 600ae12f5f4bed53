import GRDB
import WaymarkCore
import WaymarkDevices
import WaymarkServices

extension WaymarkStore {
    /// What `device`'s subscribers' services resume from after a restart (docs/semantics.md
    /// §2.5): the saved marks by subscriber key (`subscription:NAME`, `handler:NAME`), and the
    /// device's stored fixes since the earliest current stay's first fix, in time order — or,
    /// when no mark needs fixes, the last stored fix alone, which the subscribers' gates judge
    /// the next fix against.
    public func savedServiceMarks(device: String = Device.localName) throws -> (marks: [String: [ServiceMark]], fixes: [Fix]) {
        do {
            let marks = try database.read { db in
                var marks: [String: [ServiceMark]] = [:]
                let rows = try Row.fetchCursor(
                    db, sql: "SELECT subscriber, kind, time_ns, latitude, longitude FROM service_marks WHERE device = ? ORDER BY subscriber, kind",
                    arguments: [device])
                while let row = try rows.next() {
                    // A kind this build does not know (a newer one wrote it) is skipped, not fatal.
                    guard let kind = ServiceMark.Kind(rawValue: row["kind"]) else { continue }
                    let mark = ServiceMark(
                        kind: kind, time: Timestamp(nanosecondsSince1970: row["time_ns"]),
                        coordinate: Coordinate(latitude: row["latitude"], longitude: row["longitude"]))
                    marks[row["subscriber"], default: []].append(mark)
                }
                return marks
            }
            if marks.isEmpty { return (marks, []) }
            guard let from = marks.values.compactMap(\.replayFrom).min() else {
                let last = try database.read { db in
                    try Row.fetchOne(
                        db, sql: "SELECT \(Self.fixColumns) FROM fixes WHERE device = ? ORDER BY time_ns DESC, id DESC LIMIT 1",
                        arguments: [device]
                    ).map(Self.storedFix)
                }
                return (marks, last.map { [$0.fix] } ?? [])
            }
            var fixes: [Fix] = []
            try history(HistoryQuery(from: from, kinds: [.fix], devices: [device])) { item in
                if case .fix(let stored) = item { fixes.append(stored.fix) }
            }
            return (marks, fixes)
        } catch let error as StoreError {
            throw error
        } catch {
            throw storeError(error, doing: "reading the services' marks")
        }
    }

    /// Replaces `subscriber`'s marks for `device` with `marks`, in the caller's transaction.
    static func saveServiceMarks(_ marks: [ServiceMark], subscriber: String, device: String, _ db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM service_marks WHERE device = ? AND subscriber = ?").execute(arguments: [device, subscriber])
        let insert = try db.cachedStatement(
            sql: "INSERT INTO service_marks (device, subscriber, kind, time_ns, latitude, longitude) VALUES (?, ?, ?, ?, ?, ?)")
        for mark in marks {
            try insert.execute(arguments: [
                device, subscriber, mark.kind.rawValue, mark.time.nanosecondsSince1970, mark.coordinate.latitude, mark.coordinate.longitude,
            ])
        }
    }
}
