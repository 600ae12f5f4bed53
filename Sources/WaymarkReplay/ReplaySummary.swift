import WaymarkCore
import WaymarkPipeline
import WaymarkRegions
import WaymarkServices

/// What a replay saw, printed as its final `summary` record.
public struct ReplaySummary: Sendable, Equatable {
    /// Fixes read from the track.
    public var fixes = 0
    /// Fixes without a time (replayed without timing).
    public var untimedFixes = 0
    /// Regions monitored.
    public var regions = 0
    public var enters = 0
    public var exits = 0
    public var dwells = 0
    /// With location services: fixes through the validation gate, and those it dropped by reason.
    public var accepted = 0
    public var dropped: [String: Int] = [:]
    /// Location-service records by kind (`location`, `significantChange`, `visit`, …).
    public var events: [String: Int] = [:]
    /// Whether location services ran (their counts are printed then).
    public var reportsServices = false
    /// With a beacon replay file: its counts as a JSON object (`BeaconReplay.summary`).
    public var beacons: String?

    /// GNSS time and energy, with `--energy` or `--power-aware`.
    public var power: PowerFigures?

    public struct PowerFigures: Sendable, Equatable {
        public var profile: String
        /// `continuous` or `powerAware`.
        public var mode: String
        public var gpsOnSeconds: Double
        public var durationSeconds: Double
        /// Fixes the receiver did not see because it was off.
        public var unseenFixes: Int
        /// Times the receiver powered on again after sleeping (power-aware).
        public var wakes: Int
        /// Seconds of pauses in the recording (silences over five minutes), off in both modes.
        public var silentSeconds: Double
        /// Joules by radio.
        public var joules: [String: Double]
    }

    public init() {}

    private static func object(_ counts: [String: Int]) -> String {
        var json = JSONObjectWriter()
        for key in counts.keys.sorted() { json.add(key, counts[key]!) }
        return json.object
    }

    /// Takes the replay subscriber's gate counts, and prints them.
    mutating func reportServices(_ statistics: SubscriberStatistics) {
        reportsServices = true
        accepted = statistics.accepted
        dropped = Dictionary(uniqueKeysWithValues: statistics.dropped.map { ($0.key.rawValue, $0.value) })
    }

    /// Counts region transitions and location-service records.
    mutating func count(_ event: LocationEvent) {
        switch event {
        case .region(let transition):
            switch transition.kind {
            case .enter: enters += 1
            case .exit: exits += 1
            case .dwell: dwells += 1
            }
        case .service(let record, _):
            events[record.kind.rawValue, default: 0] += 1
        default:
            break
        }
    }

    /// The `{"kind":"summary",…}` record.
    public var record: String {
        var json = JSONObjectWriter()
        json.add("kind", "summary")
        json.add("fixes", fixes)
        json.add("untimedFixes", untimedFixes)
        json.add("regions", regions)
        json.addRaw("transitions", "{\"enter\":\(enters),\"exit\":\(exits),\"dwell\":\(dwells)}")
        if reportsServices {
            json.add("accepted", accepted)
            json.addRaw("dropped", Self.object(dropped))
            json.addRaw("events", Self.object(events))
        }
        if let beacons { json.addRaw("beacons", beacons) }
        if let power {
            json.add("powerProfile", power.profile)
            json.add("gnssMode", power.mode)
            json.add("gpsOnSeconds", (power.gpsOnSeconds * 1000).rounded() / 1000)
            json.add("durationSeconds", power.durationSeconds)
            json.add("unseenFixes", power.unseenFixes)
            json.add("wakes", power.wakes)
            json.add("silentSeconds", power.silentSeconds)
            var energy = JSONObjectWriter()
            for (radio, joules) in power.joules.sorted(by: { $0.key < $1.key }) { energy.add(radio, (joules * 1000).rounded() / 1000) }
            json.addRaw("energyJoules", energy.object)
        }
        return json.object
    }
}

