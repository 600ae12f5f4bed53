import ArgumentParser
import Foundation
import Logging
import WaymarkAPI
import WaymarkDaemon
import WaymarkFleet
import WaymarkPipeline
import WaymarkSteering

extension FleetRole: ExpressibleByArgument {}

/// `waymark serve --fleet --role ingest|worker|output|api`: one node of a fleet instead of the single daemon.
struct ServeFleetOptions: ParsableArguments {
    @Flag(help: "Run as one node of a fleet on PostgreSQL/PostGIS and NATS JetStream instead of the single daemon.")
    var fleet = false

    @Option(help: "With --fleet: ingest (devices' fixes onto the bus), worker (partitions of devices into PostGIS), output (webhooks and MQTT from the events) or api (the HTTP API and web page over PostgreSQL, on --socket and --tcp-port with --token-file).")
    var role: FleetRole?

    @Option(help: "With --fleet: this node's name, unique in the fleet (default: ROLE@HOSTNAME:PID).")
    var name: String?

    @Option(help: "With --fleet: the fleet's partition count; set by the first node, checked by the others (default 16).")
    var partitions: Int?

    @OptionGroup var connection: FleetConnectionOptions

    func validate(alone: Bool) throws {
        guard role != nil else { throw ValidationError("--fleet needs --role ingest, worker, output or api") }
        guard alone else {
            throw ValidationError("--fleet takes its settings from --postgres, --nats, --listen and --config (its pipeline keys); the single daemon's options do not apply")
        }
        if let partitions, !(1...4096).contains(partitions) { throw ValidationError("--partitions must be 1…4096") }
        if role == .output && partitions != nil { throw ValidationError("--partitions is for ingest and worker nodes; output nodes read every partition") }
        if let name, name.isEmpty { throw ValidationError("--name must not be empty") }
        if role == .api && partitions != nil { throw ValidationError("--partitions is for ingest and worker nodes; api nodes read every partition") }
    }

    /// An api node's listeners, as the single daemon's: the Unix socket (`--socket`, default
    /// `fleet-api.sock` beside the daemon's), and with `--tcp-port` the loopback port, which
    /// needs `--token-file` (docs/fleet.md, "API and web page").
    func api(socket: String?, tcpPort: Int?, tokenFile: String?) throws -> APIServer.Configuration {
        if tcpPort != nil && tokenFile == nil { throw ValidationError("a TCP port needs a token file (--token-file)") }
        let socketPath = socket ?? (DefaultLocations.socket(system: false) as NSString).deletingLastPathComponent + "/fleet-api.sock"
        return APIServer.Configuration(socketPath: socketPath, tcpPort: tcpPort, token: try tokenFile.map(APIToken.read(from:)))
    }

    func run(
        listen: String?, api: APIServer.Configuration? = nil, pipeline: PipelineSettings, steering: SteeringSettings = SteeringSettings(), logLevel: Logger.Level
    ) async throws {
        guard let role else { return }
        var settings = FleetNode.Settings(
            role: role, name: name ?? "\(role.rawValue)@\(ProcessInfo.processInfo.hostName):\(getpid())",
            postgres: try connection.postgresAddress(), natsURL: try connection.natsURL())
        settings.partitions = partitions
        settings.pipeline = pipeline
        settings.steering = steering
        if let api { settings.api = api }
        settings.version = Waymark.configuration.version
        if let listen {
            guard let listener = DeviceListenerSettings(listen: listen) else {
                throw ValidationError("--listen: '\(listen)' is not HOST:PORT (port 0–65535), [IPv6]:PORT or :PORT")
            }
            settings.host = listener.host
            settings.port = listener.port
        }
        try await FleetNode.run(settings, logger: CommandLogging.logger("waymark.fleet", level: logLevel))
    }
}
