import ArgumentParser
import Foundation
import Logging
import WaymarkDaemon
import WaymarkFleet

extension FleetRole: ExpressibleByArgument {}

/// `waymark serve --fleet --role ingest|worker|output`: one node of a fleet instead of the single daemon.
struct ServeFleetOptions: ParsableArguments {
    @Flag(help: "Run as one node of a fleet on PostgreSQL/PostGIS and NATS JetStream instead of the single daemon.")
    var fleet = false

    @Option(help: "With --fleet: ingest (devices' fixes onto the bus), worker (partitions of devices into PostGIS) or output (webhooks and MQTT from the events).")
    var role: FleetRole?

    @Option(help: "With --fleet: this node's name, unique in the fleet (default: ROLE@HOSTNAME:PID).")
    var name: String?

    @Option(help: "With --fleet: the fleet's partition count; set by the first node, checked by the others (default 16).")
    var partitions: Int?

    @OptionGroup var connection: FleetConnectionOptions

    func validate(alone: Bool) throws {
        guard role != nil else { throw ValidationError("--fleet needs --role ingest, worker or output") }
        guard alone else {
            throw ValidationError("--fleet takes its settings from --postgres, --nats and --listen; the single daemon's options do not apply")
        }
        if let partitions, !(1...4096).contains(partitions) { throw ValidationError("--partitions must be 1…4096") }
        if role == .output && partitions != nil { throw ValidationError("--partitions is for ingest and worker nodes; output nodes read every partition") }
        if let name, name.isEmpty { throw ValidationError("--name must not be empty") }
    }

    func run(listen: String?, logLevel: Logger.Level) async throws {
        guard let role else { return }
        var settings = FleetNode.Settings(
            role: role, name: name ?? "\(role.rawValue)@\(ProcessInfo.processInfo.hostName):\(getpid())",
            postgres: try connection.postgresAddress(), natsURL: try connection.natsURL())
        settings.partitions = partitions
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
