import WaymarkCore

/// Standard location updates (docs/semantics.md §2): every fix that passes the handler's accuracy and
/// distance filters, with automatic pause and resume and deferred (batched) delivery.
///
/// Records, in time order:
/// - `location` for each delivered fix, with `horizontalAccuracy`, `altitude`,
///   `verticalAccuracy`, `speed` and `course` when the fix has them, and `batch` (1, 2, …) when
///   delivery is deferred;
/// - `paused` (at the pause point, with the time of the fix that triggered it) and `resumed`
///   (at the fix that moved far enough, just before that fix's `location`).
///
/// Fixes must come through the validation gate (timed, in order); a fix without a time is
/// ignored.
public struct StandardUpdates: LocationService, Sendable {
    /// A handler's request for standard updates.
    public struct Configuration: Sendable, Hashable {
        /// Fixes reporting a larger horizontal error than this allows are not delivered, and
        /// play no part in pause, resume or batching.
        public var desiredAccuracy: DesiredAccuracy
        /// Metres a fix must be from the last *delivered* fix to be delivered (Core Location's
        /// `distanceFilter`); `nil` delivers every fix. The first fix is always delivered.
        public var distanceFilter: Double?
        /// Core Location's `pausesLocationUpdatesAutomatically`.
        public var pausesAutomatically: Bool
        /// Seconds the device must stay within `stationaryRadius` of one point to pause.
        public var pauseAfter: Double
        /// Metres within which the device counts as stationary.
        public var stationaryRadius: Double
        /// Metres from the pause point a fix must be to resume.
        public var resumeDistance: Double
        /// Deferred delivery: release the batch once the device has travelled this many metres
        /// (summed between the batch's delivered fixes).
        public var deferredDistance: Double?
        /// Deferred delivery: release the batch once this many seconds have passed since its
        /// first fix.
        public var deferredInterval: Double?

        public init(
            desiredAccuracy: DesiredAccuracy = .best, distanceFilter: Double? = nil,
            pausesAutomatically: Bool = false, pauseAfter: Double = 180, stationaryRadius: Double = 25,
            resumeDistance: Double = 50, deferredDistance: Double? = nil, deferredInterval: Double? = nil
        ) {
            self.desiredAccuracy = desiredAccuracy
            self.distanceFilter = distanceFilter
            self.pausesAutomatically = pausesAutomatically
            self.pauseAfter = pauseAfter
            self.stationaryRadius = stationaryRadius
            self.resumeDistance = resumeDistance
            self.deferredDistance = deferredDistance
            self.deferredInterval = deferredInterval
        }

        /// Whether delivered locations are held in batches.
        public var defersDelivery: Bool { deferredDistance != nil || deferredInterval != nil }
    }

    /// Distances within this many metres of a limit count as reaching it, so that geodesic
    /// round-off (a point built 50 m away measures 49.999999999 m) does not decide a boundary.
    public static let distanceTolerance = 0.001

    public let configuration: Configuration

    private var lastDelivered: Coordinate?
    /// The last fix that passed the accuracy filter, which a silence is judged from.
    private var lastSeen: Fix?
    /// Where and when the current stationary stretch began.
    private var stationaryAnchor: (coordinate: Coordinate, time: Timestamp)?
    /// Set while paused.
    private var pausePoint: Coordinate?
    private var batch: [LocationRecord] = []
    private var batchStart: Timestamp?
    private var batchDistance = 0.0
    private var lastBatched: Coordinate?
    private var batchNumber = 0

    /// What a silence between fixes means for a pause (docs/semantics.md §2.6).
    public let silence: SilenceRule

    public init(configuration: Configuration = Configuration(), silence: SilenceRule = .standard) {
        self.configuration = configuration
        self.silence = silence
    }

    /// Whether updates are paused (stationary, waiting for movement).
    public var isPaused: Bool { pausePoint != nil }

    public mutating func process(_ fix: Fix) -> [LocationRecord] {
        guard let time = fix.time else { return [] }
        guard configuration.desiredAccuracy.accepts(horizontalAccuracy: fix.horizontalAccuracy) else {
            return releaseIfIntervalElapsed(at: time)
        }
        var out: [LocationRecord] = []
        let silence = lastSeen.map { self.silence.judge(from: $0, to: fix) } ?? .continuous
        lastSeen = fix

        if let point = pausePoint {
            // A pause is a pause across a silence the device stayed through (SilenceRule): the
            // first fix after it, perhaps a cold start's tens of metres off, is no movement.
            if case .stay = silence { return [] }
            guard reaches(Geodesic.distance(point, fix.coordinate), configuration.resumeDistance) else { return [] }
            pausePoint = nil
            stationaryAnchor = (fix.coordinate, time)
            out.append(LocationRecord(kind: .resumed, time: time, coordinate: fix.coordinate))
            out += deliver(fix, at: time)
            return out
        }

        if configuration.pausesAutomatically {
            if let anchor = stationaryAnchor,
                Geodesic.distance(anchor.coordinate, fix.coordinate)
                    <= configuration.stationaryRadius + Self.distanceTolerance
            {
                if time.seconds(since: anchor.time) >= configuration.pauseAfter {
                    // Release what is held first, so records stay in time order.
                    out += releaseBatch()
                    pausePoint = anchor.coordinate
                    out.append(LocationRecord(kind: .paused, time: time, coordinate: anchor.coordinate))
                    return out
                }
            } else {
                stationaryAnchor = (fix.coordinate, time)
            }
        }

        if let last = lastDelivered, let filter = configuration.distanceFilter,
            !reaches(Geodesic.distance(last, fix.coordinate), filter)
        {
            return releaseIfIntervalElapsed(at: time)
        }
        return deliver(fix, at: time)
    }

    public mutating func finish() -> [LocationRecord] {
        releaseBatch()
    }

    private func reaches(_ distance: Double, _ limit: Double) -> Bool {
        distance >= limit - Self.distanceTolerance
    }

    /// Delivers `fix` now, or into the batch (releasing it when full).
    private mutating func deliver(_ fix: Fix, at time: Timestamp) -> [LocationRecord] {
        lastDelivered = fix.coordinate
        let record = LocationRecord(kind: .location, time: time, coordinate: fix.coordinate, measurements: .init(of: fix))
        guard configuration.defersDelivery else { return [record] }

        if batch.isEmpty {
            batchNumber += 1
            batchStart = time
            batchDistance = 0
        } else if let previous = lastBatched {
            batchDistance += Geodesic.distance(previous, fix.coordinate)
        }
        lastBatched = fix.coordinate
        var held = record
        held.batch = batchNumber
        batch.append(held)

        if let distance = configuration.deferredDistance, reaches(batchDistance, distance) {
            return releaseBatch()
        }
        return releaseIfIntervalElapsed(at: time)
    }

    private mutating func releaseIfIntervalElapsed(at time: Timestamp) -> [LocationRecord] {
        guard let interval = configuration.deferredInterval, let start = batchStart, !batch.isEmpty,
            time.seconds(since: start) >= interval
        else { return [] }
        return releaseBatch()
    }

    private mutating func releaseBatch() -> [LocationRecord] {
        defer {
            batch = []
            batchStart = nil
            batchDistance = 0
            lastBatched = nil
        }
        return batch
    }
}
