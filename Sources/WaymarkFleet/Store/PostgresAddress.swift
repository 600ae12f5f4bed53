import Foundation
import PostgresNIO

/// A `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE` URL, read into postgres-nio's settings.
/// TLS is not spoken: the fleet's database is on the nodes' private network (docs/fleet.md).
public struct PostgresAddress: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var user: String
    public var password: String?
    public var database: String

    /// Throws `FleetError` naming what is wrong with `url`.
    public init(_ url: String) throws(FleetError) {
        guard let components = URLComponents(string: url), let scheme = components.scheme,
            scheme == "postgres" || scheme == "postgresql"
        else { throw FleetError("--postgres: '\(url)' is not a postgres://USER@HOST:PORT/DATABASE URL") }
        guard let host = components.host, !host.isEmpty else { throw FleetError("--postgres: '\(url)' names no host") }
        guard let user = components.user, !user.isEmpty else { throw FleetError("--postgres: '\(url)' names no user") }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty else { throw FleetError("--postgres: '\(url)' names no database") }
        if let port = components.port, !(1...65535).contains(port) { throw FleetError("--postgres: port \(port) is not 1…65535") }
        self.host = host
        self.port = components.port ?? 5432
        self.user = user
        self.password = components.password
        self.database = database
    }

    /// Without the password.
    public var description: String { "postgres://\(user)@\(host):\(port)/\(database)" }

    var clientConfiguration: PostgresClient.Configuration {
        PostgresClient.Configuration(host: host, port: port, username: user, password: password, database: database, tls: .disable)
    }

    var connectionConfiguration: PostgresConnection.Configuration {
        PostgresConnection.Configuration(host: host, port: port, username: user, password: password, database: database, tls: .disable)
    }
}
