import Foundation
import PostgresNIO
import WaymarkCore
import WaymarkRegions

extension FleetDatabase {
    /// What `device`'s pipeline resumes from: its saved region states, when its regions were
    /// last established together with the regions imported since (they start unknown), and
    /// the last sequence applied. A device never seen starts afresh at sequence 0.
    func resume(device: String) async throws -> DeviceResume {
        var states: [SavedRegionState] = []
        let rows = try await client.query(
            "SELECT region, inside, since, dwelled, last_seen FROM region_state WHERE device = \(device)", logger: logger)
        for try await (region, inside, since, dwelled, lastSeen) in rows.decode((String, Bool, Date?, Bool, Date?).self) {
            states.append(
                SavedRegionState(
                    identifier: region, inside: inside, since: since.map(Timestamp.init(date:)), dwelled: dwelled,
                    lastSeen: lastSeen.map(Timestamp.init(date:))))
        }
        var lastSequence: UInt64 = 0
        var established: EstablishedRegions?
        let stateRows = try await client.query(
            """
            SELECT last_sequence, established_since, established_written IS NOT NULL,
                ARRAY(SELECT identifier FROM regions WHERE imported_at > device_state.established_written)
            FROM device_state WHERE device = \(device)
            """, logger: logger)
        for try await (sequence, since, wasEstablished, later) in stateRows.decode((Int64, Date?, Bool, [String]).self) {
            lastSequence = UInt64(sequence)
            if wasEstablished {
                established = EstablishedRegions(since: since.map(Timestamp.init(date:)), excluding: Set(later))
            }
        }
        return DeviceResume(states: SavedRegionStates(states, established: established), lastSequence: lastSequence)
    }
}
