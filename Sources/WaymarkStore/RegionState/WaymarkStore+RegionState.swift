import GRDB
import WaymarkCore
import WaymarkRegions

extension WaymarkStore {
    /// Every region's saved state, geographic and beacon, in identifier order (regions never
    /// established have none).
    public func regionStates() throws -> [SavedRegionState] {
        try readRegionStates(sql: Self.stateSelection + " ORDER BY identifier")
    }

    /// The saved state of one region, or nil when it has none (unknown, or no such region).
    public func regionState(identifier: String) throws -> SavedRegionState? {
        try readRegionStates(sql: "SELECT * FROM (\(Self.stateSelection)) WHERE identifier = ?", arguments: [identifier]).first
    }

    private static let stateSelection = """
        SELECT identifier, inside, since_ns, dwelled, NULL AS last_seen_ns FROM region_state
        UNION ALL SELECT identifier, inside, since_ns, 0, last_seen_ns FROM beacon_region_state
        """

    /// Saves states in one transaction, replacing earlier ones; durable on return
    /// (`synchronous=FULL`), like events. Each goes to its region's table (`region_state` or
    /// `beacon_region_state`); states of regions no longer stored are skipped.
    public func saveRegionStates(_ states: [SavedRegionState], at time: Timestamp) throws {
        guard !states.isEmpty else { return }
        try writeHistory(synchronous: .full, doing: "saving region states") { db in
            try Self.saveRegionStates(states, at: time, db)
        }
    }

    /// Upserts `states` in the caller's transaction (see `saveRegionStates(_:at:)`).
    static func saveRegionStates(_ states: [SavedRegionState], at time: Timestamp, _ db: Database) throws {
        let geographic = try db.cachedStatement(
            sql: """
                INSERT INTO region_state (identifier, inside, since_ns, dwelled, updated_ns)
                SELECT ?1, ?2, ?3, ?4, ?5 WHERE EXISTS (SELECT 1 FROM regions WHERE identifier = ?1)
                ON CONFLICT (identifier) DO UPDATE SET
                    inside = excluded.inside, since_ns = excluded.since_ns, dwelled = excluded.dwelled,
                    updated_ns = excluded.updated_ns
                """)
        let beacon = try db.cachedStatement(
            sql: """
                INSERT INTO beacon_region_state (identifier, inside, since_ns, last_seen_ns, updated_ns)
                SELECT ?1, ?2, ?3, ?6, ?5 WHERE EXISTS (SELECT 1 FROM beacon_regions WHERE identifier = ?1)
                ON CONFLICT (identifier) DO UPDATE SET
                    inside = excluded.inside, since_ns = excluded.since_ns, last_seen_ns = excluded.last_seen_ns,
                    updated_ns = excluded.updated_ns
                """)
        for state in states {
            let arguments: [(any DatabaseValueConvertible)?] = [
                state.identifier, state.inside, state.since?.nanosecondsSince1970, state.dwelled,
                time.nanosecondsSince1970,
            ]
            try geographic.execute(arguments: StatementArguments(arguments))
            try beacon.execute(arguments: StatementArguments(arguments + [state.lastSeen?.nanosecondsSince1970]))
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
