import Foundation
import Logging
import ServiceLifecycle
import WaymarkAPI
import WaymarkNATS
import WaymarkSteering

/// An ingest node: the device listener (OwnTracks, OsmAnd; docs/devices.md) over `FleetIngest`.
/// Stateless but for what it tells phones (`FleetSteering`: each active phone's mode and region
/// window): run as many as the devices' traffic needs, behind one address.
public struct FleetIngestNode: Service {
    public struct Settings: Sendable {
        public var name: String
        public var natsURL: String
        public var host: String
        public var port: Int
        public var onListening: (@Sendable (Int) async -> Void)?
        /// How phones are steered (`devices.power_policy`, `devices.region_window`).
        public var steering = SteeringSettings()

        public init(name: String, natsURL: String, host: String, port: Int) {
            self.name = name
            self.natsURL = natsURL
            self.host = host
            self.port = port
        }
    }

    let settings: Settings
    let database: FleetDatabase
    let partitions: Int
    let logger: Logger

    public init(settings: Settings, database: FleetDatabase, partitions: Int, logger: Logger) {
        self.settings = settings
        self.database = database
        self.partitions = partitions
        self.logger = logger
    }

    public func run() async throws {
        let bus = try await FleetBus.connect(url: settings.natsURL, node: settings.name, logger: logger)
        let (nats, jetStream) = (bus.connection, bus.jetStream)
        let started = Date()
        let steering = FleetSteering(database: database, settings: settings.steering)
        try await steering.refresh()
        let backend = FleetIngest(database: database, jetStream: jetStream, partitions: partitions, steering: steering, logger: logger)
        var configuration = DeviceIngestServer.Configuration(host: settings.host, port: settings.port)
        configuration.onListening = settings.onListening
        let server = DeviceIngestServer(configuration: configuration, backend: backend, logger: logger)
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await server.run() }
                group.addTask {
                    try await RegionsWatch.run(database.address, logger: logger, refresh: { try await steering.refresh() }) { _ in }
                }
                group.addTask {
                    try await cancelWhenGracefulShutdown {
                        while !Task.isCancelled {
                            try bus.check()
                            try await database.heartbeat(
                                name: settings.name, role: FleetRole.ingest.rawValue, startedAt: started,
                                regionsVersion: steering.currentVersion)
                            try await Task.sleep(for: .seconds(1))
                        }
                    }
                }
                try await group.next()
                group.cancelAll()
            }
        } catch is CancellationError {}
        try? await database.leave(name: settings.name)
        await nats.close()
    }
}
