import Logging
import PostgresNIO

/// The fleet's PostgreSQL/PostGIS database: a connection pool (postgres-nio's `PostgresClient`)
/// that runs while `withDatabase`'s body runs. Every call suspends; none blocks a thread.
public struct FleetDatabase: Sendable {
    let client: PostgresClient
    public let address: PostgresAddress
    let logger: Logger
    /// The days whose history tables this node has made or seen.
    let knownDays = KnownDays()

    /// Runs `body` with the database at `address`, its schema brought up to date first.
    public static func withDatabase<T: Sendable>(
        _ address: PostgresAddress, logger: Logger, _ body: (FleetDatabase) async throws -> T
    ) async throws -> T {
        try await probe(address, logger: logger)
        // The pool's own log is quiet below errors: it warns when the first query races its
        // start, which says nothing to a user; failures reach the queries' callers anyway.
        var background = logger
        background.logLevel = max(logger.logLevel, .error)
        let client = PostgresClient(configuration: address.clientConfiguration, backgroundLogger: background)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            let database = FleetDatabase(client: client, address: address, logger: logger)
            try await database.migrate()
            return try await body(database)
        }
    }

    /// One connection first, so that a database that is not there is an error naming it at
    /// once: the pool would retry until its circuit breaker trips, a minute later.
    private static func probe(_ address: PostgresAddress, logger: Logger) async throws {
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(configuration: address.connectionConfiguration, id: 0, logger: logger)
        } catch {
            throw FleetError("cannot connect to PostgreSQL at \(address): \(describe(error))")
        }
        try? await connection.close()
    }

    /// Applies the schema's missing steps, one transaction each, while holding the fleet's
    /// migration lock: nodes starting together apply each step once.
    func migrate() async throws {
        do {
            try await client.withConnection { connection in
                _ = try await connection.query("SELECT pg_advisory_lock(\(FleetSchema.lockClass), 0)", logger: logger)
                do {
                    _ = try await connection.query("CREATE TABLE IF NOT EXISTS fleet_schema (version integer PRIMARY KEY)", logger: logger)
                    var applied: Set<Int> = []
                    for try await version in try await connection.query("SELECT version FROM fleet_schema", logger: logger).decode(Int.self) {
                        applied.insert(version)
                    }
                    for step in FleetSchema.steps where !applied.contains(step.version) {
                        try await connection.withTransaction(logger: logger) { connection in
                            // One statement per query: the extended protocol takes no more.
                            for statement in FleetSchema.statements(step.sql) {
                                _ = try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                            }
                            _ = try await connection.query("INSERT INTO fleet_schema (version) VALUES (\(step.version))", logger: logger)
                        }
                        logger.notice("fleet schema migrated", metadata: ["version": "\(step.version)"])
                    }
                } catch {
                    _ = try? await connection.query("SELECT pg_advisory_unlock(\(FleetSchema.lockClass), 0)", logger: logger)
                    throw error
                }
                _ = try await connection.query("SELECT pg_advisory_unlock(\(FleetSchema.lockClass), 0)", logger: logger)
            }
        } catch {
            throw FleetError("\(address): \(Self.describe(error))")
        }
    }

    /// A server's error as one line: its message, not postgres-nio's redacted summary.
    static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return message }
            if let underlying = error.underlying { return "\(error.code): \(underlying)" }
            return "\(error.code)"
        }
        return "\(error)"
    }
}
