import GRDB
import WaymarkCore

extension WaymarkStore {
    /// Adds `buckets` to the stored ledger in one transaction: a bucket already stored (same
    /// hour, radio, handler, profile and state) grows by the new seconds and joules, a new one
    /// is inserted. Durable on return (`synchronous=FULL`): the daemon flushes at most a few
    /// dozen rows an hour, so an fsync costs nothing and a power cut loses no accounted hour.
    ///
    /// - Throws: `StoreError` `.invalidRecord` when the schema refuses a bucket (an hour that is
    ///   not whole, an unknown radio, a negative figure, an hour over 3600 s); nothing is added then.
    public func addEnergy(_ buckets: [EnergyBucket]) throws {
        guard !buckets.isEmpty else { return }
        try writeHistory(synchronous: .full, doing: "adding \(buckets.count) energy buckets") { db in
            let statement = try db.cachedStatement(
                sql: """
                    INSERT INTO energy (hour_ns, radio, handler, profile, state, seconds, joules)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (hour_ns, radio, handler, profile, state) DO UPDATE SET
                        seconds = seconds + excluded.seconds, joules = joules + excluded.joules
                    """)
            for bucket in buckets {
                try statement.execute(arguments: [
                    bucket.hour.nanosecondsSince1970, bucket.radio, bucket.handler, bucket.profile, bucket.state,
                    bucket.seconds, bucket.joules,
                ])
            }
        }
    }

    /// The stored buckets of the hours that end after `since` (all when nil): the hour holding
    /// `since` is included whole, as buckets are not divisible. Ordered by hour, radio, handler,
    /// profile, state.
    public func energy(since: Timestamp? = nil) throws -> [EnergyBucket] {
        let lowest = since?.hourStart.nanosecondsSince1970 ?? Int64.min
        do {
            return try database.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT hour_ns, radio, handler, profile, state, seconds, joules FROM energy
                        WHERE hour_ns >= ? ORDER BY hour_ns, radio, handler, profile, state
                        """,
                    arguments: [lowest]
                ).map { row in
                    EnergyBucket(
                        hour: Timestamp(nanosecondsSince1970: row["hour_ns"]), radio: row["radio"], handler: row["handler"],
                        profile: row["profile"], state: row["state"], seconds: row["seconds"], joules: row["joules"])
                }
            }
        } catch {
            throw storeError(error, doing: "reading the energy ledger")
        }
    }
}
