import Foundation
import Logging
import ServiceLifecycle
import WaymarkAPI

/// An api node (`waymark serve --fleet --role api`): the single daemon's HTTP API and web page
/// (`APIServer`: a Unix socket, and a loopback TCP port with a bearer token) over the fleet's
/// PostgreSQL (`FleetBackend`) and the bus's live messages (`FleetLiveFeed`). It keeps no state
/// of its own: run as many as the readers need. It heartbeats in `fleet_nodes`, so `fleet status`
/// lists it with the regions version it last saw.
struct FleetAPINode: Service {
    let feed: FleetLiveFeed
    let server: APIServer
    let database: FleetDatabase
    let name: String

    /// Throws `APIServerError` for a TCP port without a token, as the daemon does.
    init(settings: FleetNode.Settings, database: FleetDatabase, logger: Logger) throws {
        feed = FleetLiveFeed(natsURL: settings.natsURL, node: settings.name, logger: logger)
        let backend = FleetBackend(
            database: database, feed: feed, node: settings.name, startedAt: .now, version: settings.version, logger: logger)
        server = try APIServer(configuration: settings.api, backend: backend, logger: logger)
        self.database = database
        name = settings.name
    }

    func run() async throws {
        let started = Date()
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { try await feed.run() }
            group.addTask { try await server.run() }
            group.addTask {
                do {
                    try await cancelWhenGracefulShutdown {
                        while !Task.isCancelled {
                            try await database.heartbeat(
                                name: name, role: FleetRole.api.rawValue, startedAt: started,
                                regionsVersion: try await database.regionsVersion())
                            try await Task.sleep(for: .seconds(1))
                        }
                    }
                } catch is CancellationError {}
            }
        }
        try? await database.leave(name: name)
    }
}
