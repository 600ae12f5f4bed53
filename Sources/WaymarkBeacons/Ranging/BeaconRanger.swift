import WaymarkCore
import WaymarkRegions

/// Ranging (docs/semantics.md §3): about once a second, each visible beacon with its smoothed RSSI,
/// estimated distance and proximity class. Pure: advertisements in, `RangedBeacon` lists out.
///
/// - **Which beacons:** those matching any of `constraints` (all iBeacons when there are none).
/// - **Smoothing:** the RSSI is the arithmetic mean, in dBm, of the samples received in the last
///   `window` seconds (default 5 s) up to the ranging instant; samples with RSSI 0 (not measured)
///   are left out. A plain window mean follows a walk within a few seconds and makes one
///   outlier count 1/n; it is the running-average filter of the Android Beacon Library, with a
///   shorter window for a once-a-second report.
/// - **Distance:** `PathLossModel` from the mean RSSI and the latest advertised measured power;
///   **proximity** from the distance (`Proximity`).
/// - **Visibility:** a beacon stays in the list, with RSSI 0 and proximity unknown once its
///   window is empty, until `forgetAfter` seconds (default 10 s) after its last sighting.
/// - **Cadence:** `rangings(before:_:)` reports at whole seconds (UTC), from the first sighting
///   on, while some beacon is listed.
public struct BeaconRanger: Sendable {
    public struct Configuration: Sendable, Equatable {
        /// Seconds of samples averaged into the RSSI.
        public var window = 5.0
        /// Seconds after its last sighting when a beacon leaves the list.
        public var forgetAfter = 10.0
        /// Seconds between reports.
        public var interval = 1.0
        public var model = PathLossModel()

        public init() {}
    }

    public let configuration: Configuration
    public let constraints: [BeaconIdentity]
    private var tracks: [BeaconKey: Track] = [:]
    private var rejected: Set<BeaconKey> = []
    private var nextReport: Int64?

    struct Track: Sendable {
        var times: [Int64] = []
        var rssis: [Int8] = []
        var first = 0
        var measuredPower: Int8 = 0
        var lastSeen: Int64 = 0

        mutating func add(_ advertisement: BeaconAdvertisement, at time: Int64, keepingAfter limit: Int64) {
            drop(before: limit)
            if advertisement.rssi != 0 {
                times.append(time)
                rssis.append(advertisement.rssi)
            }
            measuredPower = advertisement.measuredPower
            lastSeen = max(lastSeen, time)
        }

        mutating func drop(before limit: Int64) {
            while first < times.count && times[first] <= limit { first += 1 }
            if first > 64 && first * 2 > times.count {
                times.removeFirst(first)
                rssis.removeFirst(first)
                first = 0
            }
        }
    }

    public init(constraints: [BeaconIdentity] = [], configuration: Configuration = Configuration()) {
        self.constraints = constraints
        self.configuration = configuration
    }

    /// Takes one advertisement into account.
    public mutating func record(_ advertisement: BeaconAdvertisement) {
        let key = advertisement.beacon
        let time = advertisement.time.nanosecondsSince1970
        let index: Dictionary<BeaconKey, Track>.Index
        if let existing = tracks.index(forKey: key) {
            index = existing
        } else {
            if rejected.contains(key) { return }
            if !constraints.isEmpty
                && !constraints.contains(where: { $0.matches(uuid: key.uuid, major: key.major, minor: key.minor) })
            {
                rejected.insert(key)
                return
            }
            tracks[key] = Track()
            index = tracks.index(forKey: key)!
        }
        tracks.values[index].add(advertisement, at: time, keepingAfter: time - nanoseconds(configuration.window))
        if nextReport == nil {
            let interval = nanoseconds(configuration.interval)
            nextReport = (time + interval - 1) / interval * interval
        }
    }

    /// The visible beacons at `time`, nearest first (unknown distances last, then by UUID,
    /// major, minor). Forgets beacons not seen for `forgetAfter`.
    public mutating func range(at time: Timestamp) -> [RangedBeacon] {
        let now = time.nanosecondsSince1970
        let windowStart = now - nanoseconds(configuration.window)
        var result: [RangedBeacon] = []
        for key in tracks.keys {
            guard var track = tracks[key] else { continue }
            if now - track.lastSeen > nanoseconds(configuration.forgetAfter) {
                tracks[key] = nil
                continue
            }
            track.drop(before: windowStart)
            tracks[key] = track
            var sum = 0
            var count = 0
            for i in track.first..<track.times.count where track.times[i] <= now {
                sum += Int(track.rssis[i])
                count += 1
            }
            let rssi = count == 0 ? 0 : Double(sum) / Double(count)
            let distance = configuration.model.distance(rssi: rssi, measuredPower: track.measuredPower)
            result.append(RangedBeacon(
                beacon: key, rssi: rssi, measuredPower: track.measuredPower, distance: distance,
                proximity: Proximity(distance: distance), samples: count,
                lastSeen: Timestamp(nanosecondsSince1970: track.lastSeen)))
        }
        result.sort { a, b in
            switch (a.distance, b.distance) {
            case (let x?, let y?) where x != y: return x < y
            case (.some, nil): return true
            case (nil, .some): return false
            default: return a.beacon < b.beacon
            }
        }
        return result
    }

    /// Reports due before `time` (at whole multiples of the interval), each non-empty list
    /// passed to `body` with its instant. Call it before recording an advertisement of `time`,
    /// and with the last time at the end (then `through: true` includes that instant).
    public mutating func rangings(
        before time: Timestamp, through: Bool = false, _ body: (Timestamp, [RangedBeacon]) throws -> Void
    ) rethrows {
        let limit = time.nanosecondsSince1970
        let interval = nanoseconds(configuration.interval)
        while let report = nextReport, report < limit || (through && report == limit) {
            if tracks.isEmpty {
                nextReport = nil
                return
            }
            let instant = Timestamp(nanosecondsSince1970: report)
            let beacons = range(at: instant)
            nextReport = report + interval
            if !beacons.isEmpty { try body(instant, beacons) }
        }
    }

    /// Beacons listed now.
    public var visibleCount: Int { tracks.count }

    private func nanoseconds(_ seconds: Double) -> Int64 { Int64((seconds * 1e9).rounded()) }
}
