import WaymarkCore

/// A snapshot of the daemon for `GET /v1/status` (as `json`) and `GET /metrics`.
public struct DaemonStatus: Sendable, Equatable {
    /// Where fixes come from and how that is going.
    public struct Source: Sendable, Equatable {
        public enum Kind: String, Sendable, Equatable {
            /// A gpsd daemon (live receiver).
            case gpsd
            /// A GPX file replayed in real or scaled time.
            case replay
            /// Phones and trackers over the network listener (docs/devices.md).
            case network
            /// A fleet's api node (docs/fleet.md): devices' fixes reach the fleet through its
            /// ingest nodes; there is no receiver (`local`).
            case fleet
        }

        public var kind: Kind
        /// Where, in the user's words: `localhost:2947`, `ride.gpx ×10`.
        public var description: String
        /// Whether the source is reachable (gpsd socket open, file readable).
        public var connected: Bool
        /// Whether fixes are being asked for (gpsd `WATCH` sent, replay running).
        public var watching: Bool
        /// The last error from the source, cleared once it works again.
        public var lastError: String?

        public init(kind: Kind, description: String, connected: Bool, watching: Bool, lastError: String? = nil) {
            self.kind = kind
            self.description = description
            self.connected = connected
            self.watching = watching
            self.lastError = lastError
        }
    }

    /// Where beacon advertisements come from (docs/semantics.md §3): a Bluetooth adapter's scan, with
    /// the interval and window the power ledger charges (receive current × window ÷ interval),
    /// or a replay file.
    public struct BeaconSource: Sendable, Equatable {
        public enum Kind: String, Sendable, Equatable {
            /// A Bluetooth LE adapter through a raw HCI socket.
            case bluetooth
            /// A beacon replay file (JSON Lines).
            case replay
        }

        public var kind: Kind
        /// `bluetooth:hci0`, `replay:beacons.jsonl`.
        public var description: String
        /// Whether advertisements are being received (adapter scanning, replay running).
        public var scanning: Bool
        /// Why it is not, e.g. "no Bluetooth adapter: /sys/class/bluetooth is empty".
        public var lastError: String?
        /// Bluetooth only: seconds between scan windows, seconds of each window.
        public var scanInterval: Double?
        public var scanWindow: Double?
        /// iBeacon advertisements received.
        public var advertisements: Int
        /// Frames that were not iBeacons, by reason (otherManufacturer, truncated, …).
        public var ignored: [String: Int]

        public init(
            kind: Kind, description: String, scanning: Bool, lastError: String? = nil, scanInterval: Double? = nil,
            scanWindow: Double? = nil, advertisements: Int = 0, ignored: [String: Int] = [:]
        ) {
            self.kind = kind
            self.description = description
            self.scanning = scanning
            self.lastError = lastError
            self.scanInterval = scanInterval
            self.scanWindow = scanWindow
            self.advertisements = advertisements
            self.ignored = ignored
        }

        var json: String {
            var w = JSONObjectWriter()
            w.add("kind", kind.rawValue)
            w.add("description", description)
            w.add("scanning", scanning)
            w.add("lastError", lastError)
            w.add("scanInterval", scanInterval)
            w.add("scanWindow", scanWindow)
            w.add("dutyCycle", scanInterval.flatMap { interval in scanWindow.map { $0 / interval } })
            w.add("advertisements", advertisements)
            w.addRaw("ignored", SubscriptionStatus.object(ignored))
            return w.object
        }
    }

    /// Names of the counters the daemon reports; others may be added and are exported too.
    public enum Counter {
        public static let fixesRecorded = "fixesRecorded"
        public static let gapsRecorded = "gapsRecorded"
        public static let eventsRecorded = "eventsRecorded"
        /// Fixes refused by validation (invalid coordinates, out of order, too inaccurate).
        public static let fixesDropped = "fixesDropped"
        /// Handler processes started for events.
        public static let handlersRun = "handlersRun"
        public static let handlersFailed = "handlersFailed"
        /// Events written to handlers' queues.
        public static let handlerEventsQueued = "handlerEventsQueued"
        /// iBeacon advertisements from the beacon source.
        public static let advertisementsReceived = "advertisementsReceived"
        /// Transitions a device reported itself (OwnTracks' `transition`) that disagreed, when
        /// they arrived, with the server's confirmed state of the region (docs/devices.md).
        public static let reportedRegionDisagreements = "reportedRegionDisagreements"
    }

    /// The daemon's version, e.g. `0.3.0`.
    public var version: String
    /// Seconds since the daemon started.
    public var uptime: Double
    public var source: Source
    /// The most recent fix, when there is one.
    public var lastFix: HistoryEntry?
    /// The SpatiaLite database file in use.
    public var databasePath: String
    /// Regions being monitored.
    public var regionCount: Int
    /// Monotonic counts since start, keyed by `Counter` names.
    public var counters: [String: Int]
    /// The location-service subscriptions the daemon runs, in configuration order.
    public var subscriptions: [SubscriptionStatus]
    /// The beacon source, when one is configured.
    public var beaconSource: BeaconSource?
    /// The radios' power state and the GNSS sampler; nil when not reported.
    public var power: Power?
    /// The network devices heard from since start, by name (docs/devices.md).
    public var devices: [DeviceActivity] = []
    /// The outputs and what they did since start, for `/metrics` (`/v1/outputs` has them as JSON).
    public var outputs: [OutputStatus] = []
    /// The newest event's row id: an output's lag is this minus its cursor.
    public var newestEvent: Int64 = 0

    public init(
        version: String, uptime: Double, source: Source, lastFix: HistoryEntry? = nil, databasePath: String,
        regionCount: Int, counters: [String: Int] = [:], subscriptions: [SubscriptionStatus] = [],
        beaconSource: BeaconSource? = nil, power: Power? = nil
    ) {
        self.beaconSource = beaconSource
        self.power = power
        self.version = version
        self.uptime = uptime
        self.source = source
        self.lastFix = lastFix
        self.databasePath = databasePath
        self.regionCount = regionCount
        self.counters = counters
        self.subscriptions = subscriptions
    }

    /// The `GET /v1/status` body: `{"version":…,"uptimeSeconds":…,"source":{…},"lastFix":{…}|null,
    /// "databasePath":…,"regionCount":…,"counters":{…},"subscriptions":[…],"beaconSource":{…}|null,"power":{…}|null}` with
    /// counters sorted by name.
    public var json: String {
        var s = JSONObjectWriter()
        s.add("kind", source.kind.rawValue)
        s.add("description", source.description)
        s.add("connected", source.connected)
        s.add("watching", source.watching)
        s.add("lastError", source.lastError)
        var w = JSONObjectWriter()
        w.add("version", version)
        w.add("uptimeSeconds", uptime)
        w.addRaw("source", s.object)
        w.addRaw("lastFix", lastFix?.json ?? "null")
        w.add("databasePath", databasePath)
        w.add("regionCount", regionCount)
        w.addRaw("counters", SubscriptionStatus.object(counters))
        w.addRaw("subscriptions", "[" + subscriptions.map(\.json).joined(separator: ",") + "]")
        w.addRaw("beaconSource", beaconSource?.json ?? "null")
        w.addRaw("power", power?.json ?? "null")
        w.addRaw("devices", "[" + devices.map(\.json).joined(separator: ",") + "]")
        return w.object
    }
}
