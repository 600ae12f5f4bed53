import Logging
import PostgresNIO

/// Ownership of partitions or outputs, as PostgreSQL session advisory locks held on one
/// connection of the node's own: a partition (an output) is one node's while its lock is held,
/// and when the node dies its connection closes and PostgreSQL releases the locks at once. No
/// lease table, no clock skew between machines.
actor AdvisoryLeases<Key: Hashable & Sendable> {
    private let connection: PostgresConnection
    private let lockClass: Int32
    private let lockKey: @Sendable (Key) -> Int32
    private let logger: Logger
    private(set) var owned: Set<Key> = []

    private init(connection: PostgresConnection, lockClass: Int32, lockKey: @escaping @Sendable (Key) -> Int32, logger: Logger) {
        self.connection = connection
        self.lockClass = lockClass
        self.lockKey = lockKey
        self.logger = logger
    }

    /// `lockKey` gives each key its lock within `lockClass`. Two keys sharing a lock are owned
    /// together (session locks nest), never by two nodes.
    static func connect(
        _ address: PostgresAddress, node: String, lockClass: Int32, lockKey: @escaping @Sendable (Key) -> Int32, logger: Logger
    ) async throws -> AdvisoryLeases {
        let connection = try await PostgresConnection.connect(configuration: address.connectionConfiguration, id: 1, logger: logger)
        // Named in pg_stat_activity, so `fleet status` and an operator can see whose locks these are.
        _ = try await connection.query("SELECT set_config('application_name', \("waymark " + node), false)", logger: logger)
        return AdvisoryLeases(connection: connection, lockClass: lockClass, lockKey: lockKey, logger: logger)
    }

    /// Takes `key` if no other node holds it.
    func tryAcquire(_ key: Key) async throws -> Bool {
        guard !owned.contains(key) else { return true }
        var acquired = false
        let rows = try await connection.query("SELECT pg_try_advisory_lock(\(lockClass), \(lockKey(key)))", logger: logger)
        for try await value in rows.decode(Bool.self) { acquired = value }
        if acquired { owned.insert(key) }
        return acquired
    }

    /// Gives `key` up; call only once what it guards has stopped.
    func release(_ key: Key) async throws {
        guard owned.remove(key) != nil else { return }
        _ = try await connection.query("SELECT pg_advisory_unlock(\(lockClass), \(lockKey(key)))", logger: logger)
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

extension AdvisoryLeases where Key == Int {
    /// Partition p's lock is (the fleet's class, p + 1); (class, 0) guards migrations.
    static func partitions(_ address: PostgresAddress, node: String, logger: Logger) async throws -> AdvisoryLeases<Int> {
        try await connect(address, node: node, lockClass: FleetSchema.lockClass, lockKey: { Int32($0 + 1) }, logger: logger)
    }
}
