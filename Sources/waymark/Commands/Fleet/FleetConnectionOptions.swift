import ArgumentParser
import Foundation
import WaymarkFleet

/// Where the fleet's database and bus are: flags, else `WAYMARK_POSTGRES` and `WAYMARK_NATS`
/// (which `scripts/fleet-up.sh` writes to its fleet.env).
struct FleetConnectionOptions: ParsableArguments {
    @Option(help: "The fleet's PostgreSQL/PostGIS, postgres://USER@HOST:PORT/DATABASE (default: $WAYMARK_POSTGRES).")
    var postgres: String?

    @Option(help: "The fleet's NATS server with JetStream, nats://HOST:PORT (default: $WAYMARK_NATS).")
    var nats: String?

    func postgresAddress() throws -> PostgresAddress {
        guard let url = postgres ?? ProcessInfo.processInfo.environment["WAYMARK_POSTGRES"] else {
            throw ValidationError("the fleet's database is not given: --postgres URL or WAYMARK_POSTGRES")
        }
        return try PostgresAddress(url)
    }

    func natsURL() throws -> String {
        guard let url = nats ?? ProcessInfo.processInfo.environment["WAYMARK_NATS"] else {
            throw ValidationError("the fleet's NATS server is not given: --nats URL or WAYMARK_NATS")
        }
        return url
    }
}
