import Logging
import ServiceLifecycle
import UnixSignals
import WaymarkAPI
import WaymarkPipeline
import WaymarkSteering

/// What a fleet node does (docs/fleet.md).
public enum FleetRole: String, Sendable, CaseIterable {
    /// Accepts devices' fixes over HTTP and publishes them to the bus.
    case ingest
    /// Owns partitions of devices: runs their pipelines, writes PostGIS.
    case worker
    /// Delivers the outputs (webhooks, MQTT) from the events the workers publish.
    case output
    /// Serves the HTTP API and the web page over PostgreSQL and the bus (`FleetAPINode`).
    case api
}

/// `waymark serve --fleet`: one node of a fleet, until SIGTERM or SIGINT.
public enum FleetNode {
    public struct Settings: Sendable {
        public var role: FleetRole
        public var name: String
        public var postgres: PostgresAddress
        public var natsURL: String
        /// The fleet's partition count, when this node is to set it (the first node) or check it.
        public var partitions: Int?
        /// Workers: the rules every device's pipeline runs, from `--config` and the pipeline
        /// flags (docs/fleet.md, "Settings"); every worker of a fleet must be given the same.
        public var pipeline = PipelineSettings.standard
        /// Ingest nodes: how phones are steered (`devices.power_policy`, `devices.region_window`,
        /// `devices.per_device` of `--config`), as the single daemon steers them.
        public var steering = SteeringSettings()
        /// Ingest nodes: where devices connect.
        public var host = "127.0.0.1"
        public var port = 8084
        public var onListening: (@Sendable (Int) async -> Void)?
        /// Api nodes: the API's socket, TCP port and token, and the web page's settings.
        public var api = APIServer.Configuration(socketPath: "/run/waymark/api.sock")
        /// Api nodes: the version `GET /v1/status` reports.
        public var version = ""

        public init(role: FleetRole, name: String, postgres: PostgresAddress, natsURL: String) {
            self.role = role
            self.name = name
            self.postgres = postgres
            self.natsURL = natsURL
        }
    }

    public static func run(_ settings: Settings, logger: Logger) async throws {
        try await FleetDatabase.withDatabase(settings.postgres, logger: logger) { database in
            let service: any Service
            switch settings.role {
            case .ingest:
                let partitions = try await database.partitions(requested: settings.partitions, mayChoose: true)
                var ingest = FleetIngestNode.Settings(name: settings.name, natsURL: settings.natsURL, host: settings.host, port: settings.port)
                ingest.onListening = settings.onListening
                ingest.steering = settings.steering
                service = FleetIngestNode(settings: ingest, database: database, partitions: partitions, logger: logger)
            case .worker:
                let partitions = try await database.partitions(requested: settings.partitions, mayChoose: false)
                service = FleetWorker(
                    settings: .worker(name: settings.name, natsURL: settings.natsURL), database: database,
                    partitions: partitions, pipeline: settings.pipeline, logger: logger)
            case .api:
                // The API reads every partition: the partition count is not its to know either.
                // The page's map over the installed offline basemap, as the single daemon's default.
                var node = settings
                node.api.basemap = try await settings.api.web.openBasemap(logger: logger)
                service = try FleetAPINode(settings: node, database: database, logger: logger)
            case .output:
                // Outputs read every device's events: the partition count is not theirs to know.
                service = FleetOutputNode(
                    settings: .output(name: settings.name, natsURL: settings.natsURL), database: database, logger: logger)
            }
            let group = ServiceGroup(
                configuration: ServiceGroupConfiguration(
                    services: [.init(service: service)], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
            try await group.run()
        }
    }
}
