import Foundation
import PostgresNIO

/// A node as `fleet_nodes` records it.
public struct FleetNodeRecord: Sendable, Equatable {
    public var name: String
    public var role: String
    public var startedAt: Date
    public var heartbeatAt: Date
    public var regionsVersion: Int64
    public var partitions: [Int]
    /// The outputs an output node delivers.
    public var outputs: [String]
    /// Seconds since its last heartbeat, by the database's clock.
    public var silentFor: Double
}

extension FleetDatabase {
    /// How long a node may stay silent before the others count it gone.
    public static let nodeLease: Double = 3

    /// Announces or refreshes this node, with the partitions it owns and the regions version it runs.
    func heartbeat(
        name: String, role: String, startedAt: Date, regionsVersion: Int64, partitions: [Int] = [], outputs: [String] = []
    ) async throws {
        let owned = partitions.map(Int32.init)
        try await client.query(
            """
            INSERT INTO fleet_nodes (name, role, started_at, heartbeat_at, regions_version, partitions, outputs)
            VALUES (\(name), \(role), \(startedAt), now(), \(regionsVersion), \(owned)::int4[], \(outputs)::text[])
            ON CONFLICT (name) DO UPDATE SET role = excluded.role, started_at = excluded.started_at,
                heartbeat_at = now(), regions_version = excluded.regions_version, partitions = excluded.partitions,
                outputs = excluded.outputs
            """, logger: logger)
    }

    /// A stopping node says so, so its partitions move at once.
    func leave(name: String) async throws {
        try await client.query("UPDATE fleet_nodes SET heartbeat_at = 'epoch', partitions = '{}', outputs = '{}' WHERE name = \(name)", logger: logger)
    }

    /// Nodes of `role` heard from within the lease.
    func liveNodes(role: String) async throws -> Int {
        var count = 0
        let rows = try await client.query(
            """
            SELECT count(*) FROM fleet_nodes
            WHERE role = \(role) AND heartbeat_at > now() - make_interval(secs => \(Self.nodeLease))
            """, logger: logger)
        for try await value in rows.decode(Int.self) { count = value }
        return count
    }

    public func nodes() async throws -> [FleetNodeRecord] {
        var nodes: [FleetNodeRecord] = []
        let rows = try await client.query(
            """
            SELECT name, role, started_at, heartbeat_at, regions_version, partitions, outputs,
                extract(epoch FROM now() - heartbeat_at)::float8
            FROM fleet_nodes ORDER BY role, name
            """, logger: logger)
        for try await (name, role, started, heartbeat, version, partitions, outputs, silent)
            in rows.decode((String, String, Date, Date, Int64, [Int32], [String], Double).self)
        {
            nodes.append(
                FleetNodeRecord(
                    name: name, role: role, startedAt: started, heartbeatAt: heartbeat, regionsVersion: version,
                    partitions: partitions.map(Int.init), outputs: outputs, silentFor: silent))
        }
        return nodes
    }
}
