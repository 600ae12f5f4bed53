import WaymarkBeacons
import WaymarkCore

/// What a replay plays next: a fix from the track or an advertisement from the beacon file.
public enum ReplayEvent: Sendable, Equatable {
    case fix(Fix)
    case advertisement(BeaconAdvertisement)

    /// The event's time (nil for an untimed fix).
    public var time: Timestamp? {
        switch self {
        case .fix(let fix): fix.time
        case .advertisement(let advertisement): advertisement.time
        }
    }
}

/// A track (GPX, NMEA 0183 or gpsd JSON, ``TrackFormat``) and a beacon replay file played as one timeline, merged by time: of the two next
/// events the earlier goes first, a fix when they are at the same time, an untimed fix as soon
/// as it comes. Either may be absent. `waymark replay` and `waymark serve` both play this.
public struct ReplayTimeline {
    public private(set) var track: TrackFileSource?
    public private(set) var beacons: BeaconReplayReader?
    private var nextFix: Fix?
    private var nextAdvertisement: BeaconAdvertisement?

    public init(trackPath: String?, trackFormat: TrackFormat? = nil, beaconPath: String?) throws {
        track = try trackPath.map { try TrackFileSource(path: $0, format: trackFormat) }
        beacons = try beaconPath.map { try BeaconReplayReader(path: $0) }
        nextFix = try track?.next()
        nextAdvertisement = try beacons?.next()
    }

    public mutating func next() throws -> ReplayEvent? {
        if let advertisement = nextAdvertisement,
            nextFix.map({ fix in fix.time.map { $0 > advertisement.time } ?? false }) ?? true
        {
            nextAdvertisement = try beacons?.next()
            return .advertisement(advertisement)
        }
        guard let fix = nextFix else { return nil }
        nextFix = try track?.next()
        return .fix(fix)
    }

    /// Advertisements accepted and frames ignored by reason, so far.
    public var beaconCounts: AdvertisementCounts { beacons?.counts ?? AdvertisementCounts() }
}
