import GRDB
import WaymarkCore

extension WaymarkStore {
    /// Adds `buckets` to the stored phone estimates in one transaction: a row already stored
    /// (same device, hour and profile) grows by the new figures. Durable on return; the daemon
    /// flushes once an hour (and on `GET /v1/power`), one row per reporting device.
    ///
    /// - Throws: `StoreError` `.invalidRecord` when the schema refuses a bucket (an hour that is
    ///   not whole, a negative figure, more than an hour in a mode); nothing is added then.
    public func addPhoneEnergy(_ buckets: [PhoneEnergyBucket]) throws {
        guard !buckets.isEmpty else { return }
        try writeHistory(synchronous: .full, doing: "adding \(buckets.count) phone energy rows") { db in
            let statement = try db.cachedStatement(
                sql: """
                    INSERT INTO phone_energy (device, hour_ns, profile, gnss_joules, wifi_joules, cellular_joules,
                        move_seconds, significant_seconds, unknown_seconds, reports, queued_reports, network_fixes)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (device, hour_ns, profile) DO UPDATE SET
                        gnss_joules = gnss_joules + excluded.gnss_joules, wifi_joules = wifi_joules + excluded.wifi_joules,
                        cellular_joules = cellular_joules + excluded.cellular_joules,
                        move_seconds = move_seconds + excluded.move_seconds,
                        significant_seconds = significant_seconds + excluded.significant_seconds,
                        unknown_seconds = unknown_seconds + excluded.unknown_seconds,
                        reports = reports + excluded.reports, queued_reports = queued_reports + excluded.queued_reports,
                        network_fixes = network_fixes + excluded.network_fixes
                    """)
            for bucket in buckets {
                try statement.execute(arguments: [
                    bucket.device, bucket.hour.nanosecondsSince1970, bucket.profile, bucket.gnssJoules, bucket.wifiJoules,
                    bucket.cellularJoules, bucket.moveSeconds, bucket.significantSeconds, bucket.unknownSeconds, bucket.reports,
                    bucket.queuedReports, bucket.networkFixes,
                ])
            }
        }
    }

    /// `device`'s stored rows of the hours that end after `since` (all when nil), by hour and profile.
    public func phoneEnergy(device: String, since: Timestamp? = nil) throws -> [PhoneEnergyBucket] {
        let lowest = since?.hourStart.nanosecondsSince1970 ?? Int64.min
        do {
            return try database.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT device, hour_ns, profile, gnss_joules, wifi_joules, cellular_joules, move_seconds,
                            significant_seconds, unknown_seconds, reports, queued_reports, network_fixes
                        FROM phone_energy WHERE device = ? AND hour_ns >= ? ORDER BY hour_ns, profile
                        """,
                    arguments: [device, lowest]
                ).map { row in
                    PhoneEnergyBucket(
                        device: row["device"], hour: Timestamp(nanosecondsSince1970: row["hour_ns"]), profile: row["profile"],
                        gnssJoules: row["gnss_joules"], wifiJoules: row["wifi_joules"], cellularJoules: row["cellular_joules"],
                        moveSeconds: row["move_seconds"], significantSeconds: row["significant_seconds"],
                        unknownSeconds: row["unknown_seconds"], reports: row["reports"], queuedReports: row["queued_reports"],
                        networkFixes: row["network_fixes"])
                }
            }
        } catch {
            throw storeError(error, doing: "reading a phone's energy")
        }
    }
}
