import GRDB
import WaymarkCore
import WaymarkDevices
import WaymarkRegions

extension WaymarkStore {
    /// Every region's saved state for `device`, geographic and beacon, in identifier order
    /// (regions never established have none).
    public func regionStates(device: String = Device.localName) throws -> [SavedRegionState] {
        try readRegionStates(sql: "SELECT * FROM (\(Self.stateSelection)) WHERE device = ? ORDER BY identifier", arguments: [device])
    }

    /// The saved state of one region for `device`, or nil when it has none (unknown, or no such
    /// region). A geographic region without a state of its own that was covered when the device
    /// last established its regions together is outside since then (`savedRegionStates`).
    public func regionState(identifier: String, device: String = Device.localName) throws -> SavedRegionState? {
        if let own = try readRegionStates(
            sql: "SELECT * FROM (\(Self.stateSelection)) WHERE device = ? AND identifier = ?", arguments: [device, identifier]
        ).first {
            return own
        }
        do {
            return try database.read { db in
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT e.since_ns FROM regions_established e JOIN regions r ON r.identifier = ?
                        WHERE e.device = ? AND (julianday(r.imported_at) - 2440587.5) * 86400.0 <= e.written_ns / 1e9
                        """,
                    arguments: [identifier, device])
                return row.map { row in
                    SavedRegionState(
                        identifier: identifier, inside: false, since: (row["since_ns"] as Int64?).map(Timestamp.init(nanosecondsSince1970:)))
                }
            }
        } catch {
            throw StoreError(code: .database, message: "reading region states: \(Self.describe(error))", path: path)
        }
    }

    private static let stateSelection = """
        SELECT device, identifier, inside, since_ns, dwelled, NULL AS last_seen_ns FROM region_state
        UNION ALL SELECT device, identifier, inside, since_ns, 0, last_seen_ns FROM beacon_region_state
        """

    /// Saves states in one transaction, replacing earlier ones; durable on return
    /// (`synchronous=FULL`), like events. Each goes to its region's table (`region_state` or
    /// `beacon_region_state`); states of regions no longer stored are skipped.
    public func saveRegionStates(_ states: [SavedRegionState], at time: Timestamp, device: String = Device.localName) throws {
        guard !states.isEmpty else { return }
        try writeHistory(synchronous: .full, doing: "saving region states") { db in
            try Self.saveRegionStates(states, at: time, device: device, db)
        }
    }

    /// Upserts `states` in the caller's transaction (see `saveRegionStates(_:at:device:)`).
    static func saveRegionStates(_ states: [SavedRegionState], at time: Timestamp, device: String, _ db: Database) throws {
        let geographic = try db.cachedStatement(
            sql: """
                INSERT INTO region_state (identifier, inside, since_ns, dwelled, updated_ns, device)
                SELECT ?1, ?2, ?3, ?4, ?5, ?7 WHERE EXISTS (SELECT 1 FROM regions WHERE identifier = ?1)
                ON CONFLICT (device, identifier) DO UPDATE SET
                    inside = excluded.inside, since_ns = excluded.since_ns, dwelled = excluded.dwelled,
                    updated_ns = excluded.updated_ns
                """)
        let beacon = try db.cachedStatement(
            sql: """
                INSERT INTO beacon_region_state (identifier, inside, since_ns, last_seen_ns, updated_ns, device)
                SELECT ?1, ?2, ?3, ?6, ?5, ?7 WHERE EXISTS (SELECT 1 FROM beacon_regions WHERE identifier = ?1)
                ON CONFLICT (device, identifier) DO UPDATE SET
                    inside = excluded.inside, since_ns = excluded.since_ns, last_seen_ns = excluded.last_seen_ns,
                    updated_ns = excluded.updated_ns
                """)
        for state in states {
            let arguments: [(any DatabaseValueConvertible)?] = [
                state.identifier, state.inside, state.since?.nanosecondsSince1970, state.dwelled,
                time.nanosecondsSince1970,
            ]
            let all = arguments + [state.lastSeen?.nanosecondsSince1970, device]
            try geographic.execute(arguments: StatementArguments(all))
            try beacon.execute(arguments: StatementArguments(all))
        }
    }

    private func readRegionStates(sql: String, arguments: StatementArguments = []) throws -> [SavedRegionState] {
        do {
            return try database.read { db in
                try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
                    SavedRegionState(
                        identifier: row["identifier"], inside: row["inside"],
                        since: (row["since_ns"] as Int64?).map(Timestamp.init(nanosecondsSince1970:)), dwelled: row["dwelled"],
                        lastSeen: (row["last_seen_ns"] as Int64?).map(Timestamp.init(nanosecondsSince1970:)))
                }
            }
        } catch {
            throw StoreError(code: .database, message: "reading region states: \(Self.describe(error))", path: path)
        }
    }
}
