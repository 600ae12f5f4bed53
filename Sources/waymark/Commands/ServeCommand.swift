import WaymarkCore
import ArgumentParser
import Foundation
import Logging
import WaymarkConfiguration
import WaymarkDaemon
import WaymarkPipeline
import WaymarkSources
import WaymarkSteering

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the daemon: fixes from gpsd (or a replayed track) to the store, regions and the API.",
        discussion: """
            Reads fixes from gpsd through libgps (reconnecting with backoff when gpsd is away), \
            records every fix, gap and region event in the SpatiaLite store, and serves the local \
            HTTP/JSON API on a Unix socket (mode 0600; docs/api.md, docs/openapi.yaml).

            Settings come from the configuration file (YAML; every key in docs/configuration.md), \
            then from these flags, which win. Signals: SIGTERM/SIGINT shut down gracefully; SIGHUP \
            re-imports the configured region files. Logs go to standard error (journald under systemd).
            """)

    @Option(help: "Configuration file (default: $XDG_CONFIG_HOME/waymark/waymark.yaml if it exists; /etc/waymark/waymark.yaml with --system).")
    var config: String?

    @Flag(help: "Use the system service's locations (/etc/waymark, /var/lib/waymark, /run/waymark).")
    var system = false

    @Option(name: .customLong("db"), help: "SpatiaLite database (store.database).")
    var database: String?

    @Option(help: "Unix socket of the API (api.socket).")
    var socket: String?

    @Option(help: "gpsd to read, HOST:PORT (gpsd.host, gpsd.port; default 127.0.0.1:2947).")
    var gpsd: String?

    @Option(name: .customLong("tcp-port"), help: "Also serve the API on 127.0.0.1:PORT, bearer token required (api.tcp_port).")
    var tcpPort: Int?

    @Option(help: "Listen for phones and trackers (OwnTracks, OsmAnd) on HOST:PORT or :PORT (devices.listen; docs/devices.md).")
    var listen: String?

    @Option(help: "Take OwnTracks messages from the MQTT broker at HOST:PORT (mqtt.host, mqtt.port; docs/devices.md).")
    var mqtt: String?

    @Option(name: .customLong("tls-certificate"), help: "With --listen: serve HTTPS with this PEM certificate chain (devices.tls_certificate).")
    var tlsCertificate: String?

    @Option(name: .customLong("tls-key"), help: "With --listen: the PEM private key of --tls-certificate (devices.tls_key).")
    var tlsKey: String?

    @Option(name: .customLong("token-file"), help: "File holding the bearer token for TCP clients (api.token_file).")
    var tokenFile: String?

    @Option(name: .long, parsing: .upToNextOption, help: "GeoJSON region files or folders to import at start and on SIGHUP (regions.paths).")
    var regions: [String] = []

    @Option(name: .customLong("id-property"), help: "Feature property naming a region (regions.id_property).")
    var idProperty: String?

    @Option(name: .customLong("retention-days"), help: "Delete history older than this many days (store.retention_days).")
    var retentionDays: Double?

    @Option(help: "Replay this track instead of reading gpsd (the same pipeline, for testing): GPX, an NMEA 0183 log or a gpsd JSON log (gpspipe -w).")
    var replay: String?

    @Option(name: .customLong("track-format"), help: "With --replay: the track's format, gpx, nmea or gpsd (default: told by its content).")
    var trackFormat: TrackFormat?

    @Option(help: "Replay this beacon file (JSON Lines of advertisements, docs/beacons.md) as the beacon source; with --replay, merged by time.")
    var beacons: String?

    @Option(help: "Scan for iBeacons with this Bluetooth adapter (hci0, …; 'first' for the first one) through a raw HCI socket (bluetooth.adapter; needs CAP_NET_RAW).")
    var bluetooth: String?

    @Option(name: .customLong("scan-interval"), help: "With --bluetooth: seconds between scan windows (bluetooth.scan_interval; default 0.1).")
    var scanInterval: Double?

    @Option(name: .customLong("scan-window"), help: "With --bluetooth: seconds of listening in each interval (bluetooth.scan_window; default 0.05).")
    var scanWindow: Double?

    @Option(help: "With --replay: FACTOR times real time.")
    var speed: Double?

    @Flag(help: "With --replay: as fast as possible (the default for --replay).")
    var fast = false

    @Flag(name: .customLong("exit-after-replay"), help: "With --replay: stop the daemon when the track ends.")
    var exitAfterReplay = false

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical (log.level).")
    var logLevel: String?

    @OptionGroup(title: "Pipeline settings (regions.crossing_gap, regions.activity; docs/configuration.md)") var pipelineFlags: PipelineFlags

    @OptionGroup(title: "Fleet mode (docs/fleet.md)") var fleetOptions: ServeFleetOptions

    func validate() throws {
        if fleetOptions.fleet {
            try fleetOptions.validate(alone: database == nil && (socket == nil || fleetOptions.role == .api) && gpsd == nil && replay == nil && beacons == nil && bluetooth == nil)
            return
        }
        if fleetOptions.role != nil { throw ValidationError("--role needs --fleet") }
        if fast && speed != nil { throw ValidationError("--fast and --speed cannot be used together") }
        if let speed, !(speed.isFinite && speed > 0) { throw ValidationError("--speed must be a positive number") }
        if replay == nil && beacons == nil && (speed != nil || fast || exitAfterReplay) {
            throw ValidationError("--speed, --fast and --exit-after-replay need --replay or --beacons")
        }
        if replay == nil && trackFormat != nil { throw ValidationError("--track-format needs --replay") }
        if beacons != nil && bluetooth != nil { throw ValidationError("--beacons and --bluetooth cannot be used together: one beacon source") }
        if let gpsd, Self.hostAndPort(gpsd) == nil { throw ValidationError("--gpsd must be HOST:PORT, got '\(gpsd)'") }
        if let logLevel, Logger.Level(rawValue: logLevel) == nil { throw ValidationError("--log-level: unknown level '\(logLevel)'") }
        if let tcpPort, !(1...65535).contains(tcpPort) { throw ValidationError("--tcp-port must be 1…65535") }
        if (tlsCertificate == nil) != (tlsKey == nil) { throw ValidationError("--tls-certificate and --tls-key go together") }
        if let mqtt, Self.hostAndPort(mqtt) == nil {
            throw ValidationError("--mqtt: '\(mqtt)' is not HOST:PORT")
        }
        if let listen, DeviceListenerSettings(listen: listen) == nil {
            throw ValidationError("--listen: '\(listen)' is not HOST:PORT (port 0–65535), [IPv6]:PORT or :PORT")
        }
    }

    func run() async throws {
        if fleetOptions.fleet {
            // A worker's pipeline settings: the pipeline keys of --config, then the flags (docs/fleet.md).
            let pipeline = pipelineFlags.applied(to: try config.map { try PipelineSettings.load(yamlFile: $0) } ?? .standard)
            let api = fleetOptions.role == .api ? try fleetOptions.api(socket: socket, tcpPort: tcpPort, tokenFile: tokenFile) : nil
            // An ingest node's phones, steered by the `devices` keys of --config as the daemon's are.
            let steering = try config.map { try SteeringSettings.load(yamlFile: $0) } ?? SteeringSettings()
            try await fleetOptions.run(
                listen: listen, api: api, pipeline: pipeline, steering: steering, logLevel: logLevel.flatMap(Logger.Level.init(rawValue:)) ?? .notice)
            return
        }
        var configuration = DaemonConfiguration(
            database: DefaultLocations.database(system: system), socketPath: DefaultLocations.socket(system: system))
        let file = config ?? DefaultLocations.configuration(system: system)
        if config != nil || FileManager.default.fileExists(atPath: file) {
            configuration = try DaemonConfiguration.load(yamlFile: file, over: configuration)
        }
        if let database { configuration.database = database }
        if let socket { configuration.socketPath = socket }
        if let gpsd, let (host, port) = Self.hostAndPort(gpsd) {
            configuration.gpsdHost = host
            configuration.gpsdPort = port
        }
        if let tcpPort { configuration.tcpPort = tcpPort }
        if let mqtt, let (host, port) = Self.hostAndPort(mqtt) {
            var settings = configuration.mqtt ?? MQTTSettings(host: host)
            settings.host = host
            settings.port = port
            configuration.mqtt = settings
        }
        if let listen, var settings = DeviceListenerSettings(listen: listen) {
            if let configured = configuration.deviceListener {
                settings.maximumBodySize = configured.maximumBodySize
                settings.tlsCertificate = configured.tlsCertificate
                settings.tlsKey = configured.tlsKey
            }
            configuration.deviceListener = settings
        }
        if let tlsCertificate, let tlsKey {
            guard configuration.deviceListener != nil else { throw ValidationError("--tls-certificate needs --listen (or devices.listen)") }
            configuration.deviceListener?.tlsCertificate = tlsCertificate
            configuration.deviceListener?.tlsKey = tlsKey
        }
        if let tokenFile { configuration.tokenFile = tokenFile }
        if !regions.isEmpty { configuration.regionPaths = regions }
        if let idProperty { configuration.idProperty = idProperty }
        if let retentionDays { configuration.retentionDays = retentionDays }
        configuration.pipeline = pipelineFlags.applied(to: configuration.pipeline)
        if let logLevel, let level = Logger.Level(rawValue: logLevel) { configuration.logLevel = level }
        if replay != nil || beacons != nil {
            configuration.replay = ReplaySettings(
                trackPath: replay, trackFormat: trackFormat, beaconPath: beacons, speed: speed, exitWhenDone: exitAfterReplay)
        }
        if let bluetooth {
            configuration.bluetooth = BluetoothSettings(
                adapter: bluetooth == "first" ? nil : bluetooth, scan: configuration.bluetooth?.scan ?? .default)
        }
        if scanInterval != nil || scanWindow != nil {
            guard var settings = configuration.bluetooth else { throw ValidationError("--scan-interval and --scan-window need --bluetooth (or bluetooth: in the configuration)") }
            if let scanInterval { settings.scan.interval = scanInterval }
            if let scanWindow { settings.scan.window = scanWindow }
            if let problem = settings.scan.problem { throw ValidationError(problem) }
            configuration.bluetooth = settings
        }
        if beacons != nil { configuration.bluetooth = nil }
        if configuration.tcpPort != nil && configuration.tokenFile == nil {
            throw ValidationError("a TCP port needs a token file (--token-file or api.token_file)")
        }
        try await Daemon.run(configuration, logger: CommandLogging.logger("waymark", level: configuration.logLevel))
    }

    static func hostAndPort(_ text: String) -> (String, Int)? {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (1...65535).contains(port), colon > text.startIndex
        else { return nil }
        return (String(text[..<colon]), port)
    }
}
