import WaymarkCore

/// What the mode policy needs to know of a phone's recent reports: how fast it goes and how long
/// it has been still. Pure; one per device, fed every report in time order.
///
/// Still: every report since the still period began lies within the still radius of the
/// period's centre (the median of its positions, so one wild fix does not drag it). The radius
/// is the larger of `PhoneModePolicy.stillRadius` and `stillAccuracyFactor` × the median stated
/// accuracy, so honest noise stays inside. A report leaves the period only when even its own
/// error circle misses the still circle (distance > radius + its accuracy): an outlier that says
/// it is poor does not end a parked phone's stillness, a fix that says it is good does.
public struct PhoneMotion: Sendable {
    /// The positions and accuracies of the current still period, oldest first (at most
    /// `PhoneMotion.keep`, the latest ones).
    public private(set) var still: [(coordinate: Coordinate, accuracy: Double)] = []
    /// When the current still period began.
    public private(set) var stillSince: Timestamp?
    /// The latest report taken.
    public private(set) var last: (time: Timestamp, coordinate: Coordinate, accuracy: Double)?
    /// Metres per second, as the latest report says or as the last two imply.
    public private(set) var speed: Double?

    /// Reports kept for the still period's centre and radius: enough for a stable median.
    public static let keep = 32
    /// Seconds: a gap longer than this says nothing about speed (the phone may have stopped).
    public static let speedGap = 900.0
    /// Metres per second (about 300 km/h, a high-speed train): two reports further apart than
    /// this implies are a position jump (a stale or wrong position, a transition sent with the
    /// phone's last fix), not motion, and imply no speed.
    public static let plausibleSpeed = 85.0

    public init() {}

    /// Seconds the phone has been still at `time` (0 when it is not).
    public func stillFor(at time: Timestamp) -> Double {
        guard let stillSince else { return 0 }
        return max(time.seconds(since: stillSince), 0)
    }

    /// Takes a report. `reportedSpeed` in m/s; `accuracy` as stated, the policy's default when
    /// none. Reports older than the latest are ignored (OwnTracks may send a backlog late).
    public mutating func take(
        time: Timestamp, coordinate: Coordinate, accuracy stated: Double?, reportedSpeed: Double?, policy: PhoneModePolicy
    ) {
        if let last, time < last.time { return }
        let accuracy = stated.map { max($0, 0) } ?? policy.defaultUncertainty
        speed = reportedSpeed.map { max($0, 0) }
        if let last {
            let gap = time.seconds(since: last.time)
            if gap > 0, gap <= Self.speedGap {
                // Only what the two fixes' errors cannot explain counts as movement.
                let moved = max(Geodesic.distance(last.coordinate, coordinate) - last.accuracy - accuracy, 0)
                if moved / gap <= Self.plausibleSpeed { speed = max(speed ?? 0, moved / gap) }
            }
        }
        last = (time, coordinate, accuracy)
        if let centre = stillCentre, Geodesic.distance(centre, coordinate) <= stillRadius(policy) + accuracy {
            still.append((coordinate, accuracy))
            if still.count > Self.keep { still.removeFirst(still.count - Self.keep) }
        } else {
            still = [(coordinate, accuracy)]
            stillSince = time
        }
    }

    /// Starts a new still period at the latest report: the phone told it moved (it left the
    /// departure fence it was given where it stood still), whatever its fix's error allows.
    public mutating func restartStill(at time: Timestamp, coordinate: Coordinate, accuracy stated: Double?, policy: PhoneModePolicy) {
        still = [(coordinate, stated.map { max($0, 0) } ?? policy.defaultUncertainty)]
        stillSince = time
    }

    /// The median position of the still period.
    public var stillCentre: Coordinate? {
        guard !still.isEmpty else { return nil }
        return Coordinate(latitude: median(still.map(\.coordinate.latitude)), longitude: median(still.map(\.coordinate.longitude)))
    }

    /// Metres within which the still period's reports lie.
    public func stillRadius(_ policy: PhoneModePolicy) -> Double {
        max(policy.stillRadius, policy.stillAccuracyFactor * median(still.map(\.accuracy)))
    }

    private func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }
}
