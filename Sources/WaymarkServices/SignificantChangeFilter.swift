import WaymarkCore

/// The significant-change location service (docs/semantics.md §2): delivers the first fix, then each
/// fix at least `minimumDistance` metres (WGS84 geodesic) from the last significant location
/// **and** at least `minimumInterval` seconds after it. Both bounds are inclusive. Defaults are
/// Core Location's 500 m / 300 s.
///
/// Distances are measured from the last *significant* location, not the last fix, so slow
/// steady movement still adds up. Accuracy and distance filters do not apply. Input fixes are
/// expected to have passed a `ValidationGate`; a fix without a time is ignored.
/// Records have kind `significantChange` and no further fields.
///
/// Silences (`SilenceRule`, docs/semantics.md §2.6) need no rule of their own here: a silence
/// already meets the 300 s, so the fix after one, stay or gap, is delivered exactly when it is
/// 500 m or more from the last significant location.
public struct SignificantChangeFilter: LocationService, Sendable {
    /// Metres from the last significant location; default 500 (Core Location).
    public var minimumDistance: Double
    /// Seconds after the last significant location; default 300 (Core Location).
    public var minimumInterval: Double

    /// The last location delivered, if any.
    public private(set) var lastSignificant: (time: Timestamp, coordinate: Coordinate)?

    public init(minimumDistance: Double = 500, minimumInterval: Double = 300) {
        self.minimumDistance = minimumDistance
        self.minimumInterval = minimumInterval
    }

    public mutating func process(_ fix: Fix) -> [LocationRecord] {
        guard let time = fix.time else { return [] }
        if let last = lastSignificant {
            guard time.seconds(since: last.time) >= minimumInterval,
                Geodesic.distance(last.coordinate, fix.coordinate) >= minimumDistance
            else { return [] }
        }
        lastSignificant = (time, fix.coordinate)
        return [LocationRecord(kind: .significantChange, time: time, coordinate: fix.coordinate)]
    }

    /// Nothing is ever held back.
    public mutating func finish() -> [LocationRecord] { [] }

    /// The last significant location: after a restart the next one is measured from it.
    public var mark: ServiceMark? {
        lastSignificant.map { ServiceMark(kind: .significantLocation, time: $0.time, coordinate: $0.coordinate) }
    }

    /// Takes the saved last significant location; no fixes are needed.
    public mutating func resume(from marks: [ServiceMark], replaying fixes: [Fix]) {
        guard let saved = marks[.significantLocation] else { return }
        lastSignificant = (saved.time, saved.coordinate)
    }
}
