import Logging
import PostgresNIO

/// Ownership of partitions, as PostgreSQL session advisory locks held on one connection of
/// the worker's own: a partition is one worker's while its lock is held, and when the worker
/// dies its connection closes and PostgreSQL releases the locks at once. No lease table, no
/// clock skew between machines.
actor PartitionLeases {
    private let connection: PostgresConnection
    private let logger: Logger
    private(set) var owned: Set<Int> = []

    private init(connection: PostgresConnection, logger: Logger) {
        self.connection = connection
        self.logger = logger
    }

    static func connect(_ address: PostgresAddress, node: String, logger: Logger) async throws -> PartitionLeases {
        let connection = try await PostgresConnection.connect(configuration: address.connectionConfiguration, id: 1, logger: logger)
        // Named in pg_stat_activity, so `fleet status` and an operator can see whose locks these are.
        _ = try await connection.query("SELECT set_config('application_name', \("waymark " + node), false)", logger: logger)
        return PartitionLeases(connection: connection, logger: logger)
    }

    /// Takes `partition` if no other worker holds it.
    func tryAcquire(_ partition: Int) async throws -> Bool {
        var acquired = false
        let rows = try await connection.query(
            "SELECT pg_try_advisory_lock(\(FleetSchema.lockClass), \(Int32(partition + 1)))", logger: logger)
        for try await value in rows.decode(Bool.self) { acquired = value }
        if acquired { owned.insert(partition) }
        return acquired
    }

    /// Gives `partition` up; call only once its consumer has stopped.
    func release(_ partition: Int) async throws {
        guard owned.remove(partition) != nil else { return }
        _ = try await connection.query(
            "SELECT pg_advisory_unlock(\(FleetSchema.lockClass), \(Int32(partition + 1)))", logger: logger)
    }

    /// Whether the connection, and with it every lock, is still there.
    func check() async throws {
        _ = try await connection.query("SELECT 1", logger: logger)
    }

    func close() async {
        owned.removeAll()
        try? await connection.close()
    }
}
