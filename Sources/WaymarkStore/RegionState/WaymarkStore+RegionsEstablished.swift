import Foundation
import GRDB
import WaymarkCore
import WaymarkDevices
import WaymarkRegions

extension WaymarkStore {
    /// What `device`'s pipeline restores its geographic and beacon regions from: every saved
    /// state, and when its regions were last established together, with the regions imported
    /// since (they start unknown).
    public func savedRegionStates(device: String = Device.localName) throws -> SavedRegionStates {
        let states = try regionStates(device: device)
        do {
            let established = try database.read { db -> EstablishedRegions? in
                guard let row = try Row.fetchOne(db, sql: "SELECT since_ns, written_ns FROM regions_established WHERE device = ?", arguments: [device])
                else { return nil }
                let written = Double(row["written_ns"] as Int64) / 1e9
                // imported_at is RFC 3339 text; julianday reads it (fractions included) as days.
                let later = try String.fetchSet(
                    db, sql: "SELECT identifier FROM regions WHERE (julianday(imported_at) - 2440587.5) * 86400.0 > ?",
                    arguments: [written])
                return EstablishedRegions(
                    since: (row["since_ns"] as Int64?).map(Timestamp.init(nanosecondsSince1970:)), excluding: later)
            }
            return SavedRegionStates(states, established: established)
        } catch {
            throw StoreError(code: .database, message: "reading region states: \(Self.describe(error))", path: path)
        }
    }

    /// Records that `device`'s regions were established together, now (the wall clock), in one
    /// durable transaction (the daemon writes it through the store writer, with the fix).
    public func saveRegionsEstablished(_ established: EstablishedRegions, device: String = Device.localName) throws {
        try writeHistory(synchronous: .full, doing: "saving region states") { db in
            try Self.saveRegionsEstablished(established, device: device, db)
        }
    }

    /// As `saveRegionsEstablished(_:device:)`, in the caller's transaction.
    static func saveRegionsEstablished(_ established: EstablishedRegions, device: String, _ db: Database) throws {
        let written = Int64((Date().timeIntervalSince1970 * 1e9).rounded())
        try db.cachedStatement(
            sql: """
                INSERT INTO regions_established (device, since_ns, written_ns) VALUES (?, ?, ?)
                ON CONFLICT (device) DO UPDATE SET since_ns = excluded.since_ns, written_ns = excluded.written_ns
                """
        ).execute(arguments: [device, established.since?.nanosecondsSince1970, written])
    }
}
