import WaymarkCore

/// The elevation profile beneath the map: altitude against distance along the track, gathered
/// in one bin per pixel column while the points stream (constant memory), with the distances
/// at which events happened.
///
/// Distance is the same as the statistics' (geodesic, nothing across gaps), so the profile ends
/// at the track's length.
public struct ElevationProfile: Sendable {
    public let totalDistance: Double
    /// The running mean of each column (a sum of altitudes near the largest double would
    /// overflow to infinity; a mean of finite values stays finite).
    private var means: [Double]
    private var counts: [Int]
    private var travelled = 0.0
    private var previous: Coordinate?
    private let events: [TrackEvent]
    private var nextEvent = 0
    /// Distance along the track of each event matched so far, by index in `events`.
    public private(set) var eventDistances: [(event: TrackEvent, distance: Double)] = []

    public init(columns: Int, totalDistance: Double, events: [TrackEvent]) {
        self.totalDistance = totalDistance
        means = [Double](repeating: 0, count: max(1, columns))
        counts = [Int](repeating: 0, count: max(1, columns))
        self.events = events
    }

    public mutating func add(_ fix: Fix, startsSegment: Bool) {
        if let previous, !startsSegment { travelled += Geodesic.distance(previous, fix.coordinate) }
        previous = fix.coordinate
        matchEvents(fix)
        guard let altitude = fix.altitude, altitude.isFinite else { return }
        let position = totalDistance > 0 ? travelled / totalDistance * Double(means.count - 1) : 0
        let index = position.roundedInteger(.towardZero, clampedTo: 0...(means.count - 1)) ?? 0
        counts[index] += 1
        means[index] += (altitude - means[index]) / Double(counts[index])
    }

    /// Events are in time order; an event is placed at the first point at or after its time
    /// (untimed: the first point at its position).
    private mutating func matchEvents(_ fix: Fix) {
        while nextEvent < events.count {
            let event = events[nextEvent]
            let reached: Bool
            if let eventTime = event.time, let time = fix.time {
                reached = time >= eventTime
            } else {
                reached = fix.coordinate == event.coordinate
            }
            guard reached else { return }
            eventDistances.append((event, travelled))
            nextEvent += 1
        }
    }

    /// Mean altitude per column, `nil` where no point fell; gaps between filled columns are
    /// bridged by the line drawn through them.
    public var columns: [Double?] {
        zip(means, counts).map { $1 > 0 ? $0 : nil }
    }
}
