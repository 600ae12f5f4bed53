import WaymarkAPI
import WaymarkCore
import WaymarkRegions
import WaymarkSources
import Foundation
import Logging
import WaymarkHandlers
import WaymarkBeacons
import WaymarkOutputs
import WaymarkPipeline
import WaymarkSteering

/// Everything `waymark serve` can be told, from the configuration file and then command-line
/// flags (flags win). `docs/configuration.md` documents every key; defaults are listed here.
public struct DaemonConfiguration: Sendable, Equatable {
    /// `store.database`: the SpatiaLite file holding regions and history.
    public var database: String
    /// `store.retention_days`: history older than this is deleted (hourly); `nil` keeps everything.
    public var retentionDays: Double?
    /// `store.record_fixes`: record every fix in history. With it off, the GPS is needed only
    /// while regions are monitored or a live stream is open; otherwise gpsd is not watched, so
    /// it can idle the receiver.
    public var recordFixes = true
    /// `gpsd.host` / `gpsd.port`: where gpsd listens (default 127.0.0.1:2947).
    public var gpsdHost = "127.0.0.1"
    public var gpsdPort = 2947
    /// `api.socket`: the Unix socket of the local API (mode 0600).
    public var socketPath: String
    /// `api.tcp_port`: also serve the API on 127.0.0.1:PORT, with a bearer token; `nil`: no TCP.
    public var tcpPort: Int?
    /// `api.token_file`: file whose first line is the bearer token for TCP clients (required
    /// with `tcp_port`).
    public var tokenFile: String?
    /// `api.group`: members of this group (its id) may use the API socket too; it is made 0660
    /// with that group. Nil: the daemon's own user (and root) only.
    public var apiGroup: UInt32?
    /// `regions.paths`: GeoJSON files or folders imported (replacing same-named regions) at
    /// start and on SIGHUP.
    public var regionPaths: [String] = []
    /// `regions.id_property`: the feature property naming a region.
    public var idProperty: String?
    /// `regions.crossing_gap`, `regions.activity`, `silence.*`: what shapes every device's pipeline, as
    /// `replay`, `export`, `bench` and the fleet read it (docs/configuration.md, "Pipeline settings").
    public var pipeline = PipelineSettings.standard

    /// The region engine's rules with what this configuration sets.
    public var regionConfiguration: RegionMonitor.Configuration { pipeline.regions }
    /// `subscriptions`: named location-service subscriptions the daemon runs on every fix; their
    /// records are stored as events and streamed live (handlers bring their own, later).
    public var subscriptions: [ConfiguredSubscription] = []
    /// `handlers.socket_directory`: where each daemon makes its handler socket, in a `daemon-PID`
    /// folder (mode 0700); default: a
    /// `handlers` folder beside the API socket.
    public var handlerSocketDirectory: String {
        get { handlerSocketDirectoryOverride ?? folder(of: socketPath) + "/handlers" }
        set { handlerSocketDirectoryOverride = newValue }
    }
    var handlerSocketDirectoryOverride: String?
    /// `handlers.log_directory`: handlers' stdout and stderr go to `NAME.log` there; nil: discarded.
    public var handlerLogDirectory: String?
    /// `handlers.log_max_bytes`: a handler's log past this is copied to `NAME.log.1` and emptied.
    public var handlerLogMaximumBytes = HandlerLog.defaultMaximumBytes
    /// `handlers.max_suspended`: suspended handlers beyond this are terminated, oldest first.
    public var maximumSuspendedHandlers = 8
    /// `handlers.max_processes`: processes and threads one handler may have at once (its cgroup's
    /// `pids.max`), where the daemon can make cgroups (`HandlerCgroups`).
    public var handlerMaximumProcesses = HandlerSupervisor.Settings.defaultMaximumProcesses
    /// `handlers.memory_pressure_file`: the PSI file watched for memory pressure (`none`: not
    /// watched); another file stands in for it in tests.
    public var memoryPressureFile: String? = "/proc/pressure/memory"
    /// `log.level`: trace, debug, info, notice, warning, error, critical (default info).
    public var logLevel: Logger.Level = .info
    /// Replay a GPX track instead of reading gpsd, and/or a beacon replay file (command line only).
    public var replay: ReplaySettings?
    /// `bluetooth`: scan for iBeacons with a Bluetooth LE adapter; nil: no Bluetooth source.
    public var bluetooth: BluetoothSettings?
    /// `power`: power profiles and power-aware GNSS sampling (docs/semantics.md §4).
    public var power = PowerSettings()
    /// `web.*`: the page `waymark serve` serves at `/` (Leaflet's directory, a basemap).
    public var web = WebSettings()
    /// The network listener for phones and trackers (docs/devices.md); nil: none.
    public var deviceListener: DeviceListenerSettings?
    /// The MQTT broker OwnTracks phones publish to (docs/devices.md); nil: none.
    public var mqtt: MQTTSettings?
    /// `devices.power_policy`, `devices.region_window`, `devices.per_device`: how phones are
    /// steered (docs/devices.md, "Batteries").
    public var steering = SteeringSettings()
    /// Outputs from the `outputs` section, put into the store at start (docs/outputs.md).
    public var outputs: [Output] = []

    public init(database: String, socketPath: String) {
        self.database = database
        self.socketPath = socketPath
    }
}

/// `waymark serve --replay TRACK` / `--beacons FILE`: the daemon's pipeline fed from a track
/// (GPX, NMEA 0183 or a gpsd JSON log, instead of gpsd) and/or a beacon replay file, merged by time.
public struct ReplaySettings: Sendable, Equatable {
    /// The track; nil: fixes come from gpsd.
    public var trackPath: String?
    /// The track's format; nil: told by its content.
    public var trackFormat: TrackFormat?
    /// The beacon replay file (docs/beacons.md); nil: none.
    public var beaconPath: String?
    /// Speed factor against the track's clock; `nil` as fast as possible.
    public var speed: Double?
    /// Stop the daemon when the track ends (tests, batch imports) instead of serving on.
    public var exitWhenDone: Bool

    public init(
        trackPath: String?, trackFormat: TrackFormat? = nil, beaconPath: String? = nil, speed: Double?, exitWhenDone: Bool
    ) {
        self.trackPath = trackPath
        self.trackFormat = trackFormat
        self.beaconPath = beaconPath
        self.speed = speed
        self.exitWhenDone = exitWhenDone
    }
}

/// `bluetooth.*`: the adapter that scans for iBeacons, and how.
public struct BluetoothSettings: Sendable, Equatable {
    /// `bluetooth.adapter`: `hci0`, …; nil: the first adapter.
    public var adapter: String?
    /// `bluetooth.scan_interval` / `bluetooth.scan_window`, seconds (default 0.1 / 0.05).
    public var scan: ScanParameters

    public init(adapter: String? = nil, scan: ScanParameters = .default) {
        self.adapter = adapter
        self.scan = scan
    }
}
