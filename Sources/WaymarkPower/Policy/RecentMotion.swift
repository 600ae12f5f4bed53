import WaymarkCore

/// How fast a device has been moving lately, learned from the fixes it had, for an
/// `ApproachBound` tighter than the activity's maximum: the device's fastest recent speed, with
/// a margin, is where its speed starts, and it may gain speed from there at a bounded
/// acceleration (the caller's: `GNSSSchedule.acceleration`). A cyclist riding at 6 m/s starts
/// at 11 m/s, rising to the activity's 15; a hiker at 1.2 m/s at 3.8 m/s. Pure; one per device,
/// fed every fix it had, in time order.
///
/// Speeds are measured over at least `baseline` seconds (the latest fix against the newest kept
/// fix that much older), so a fix's wander of a few metres does not read as a sprint; a fix's
/// own speed (a receiver's Doppler speed) counts too. Fixes the device did not have while the
/// receiver slept count as nothing: the speed between two wakes is their displacement over the
/// sleep, an average the margin and the acceleration cover. Only the last `window` seconds
/// count; after a longer gap (the device off, a silence) nothing is known and the bound is the
/// activity's maximum again.
public struct RecentMotion: Sendable {
    public struct Settings: Sendable, Equatable {
        /// Seconds of motion the learned speed covers.
        public var window: Double
        /// Seconds over which a speed is measured at least.
        public var baseline: Double
        /// The learned speed is multiplied by this…
        public var factor: Double
        /// …and this many metres per second added: the start speed.
        public var margin: Double

        public init(window: Double = 120, baseline: Double = 5, factor: Double = 1.5, margin: Double = 2) {
            self.window = window
            self.baseline = baseline
            self.factor = factor
            self.margin = margin
        }

        public static let standard = Settings()
    }

    public var settings: Settings
    /// Recent fixes (time, position), oldest first: enough to measure over the baseline.
    private var recent: [(time: Timestamp, coordinate: Coordinate)] = []
    /// Speeds measured in the window (time measured, metres per second), oldest first.
    private var speeds: [(time: Timestamp, speed: Double)] = []

    public init(settings: Settings = .standard) { self.settings = settings }

    /// Takes a fix the device had. Untimed fixes and fixes older than the latest are ignored.
    public mutating func take(_ fix: Fix) {
        guard let time = fix.time else { return }
        if let last = recent.last {
            if time <= last.time { return }
            // A gap longer than the window: what came before says nothing of now.
            if time.seconds(since: last.time) > settings.window {
                recent = []
                speeds = []
            }
        }
        if let reported = fix.speed, reported.isFinite, reported >= 0 { speeds.append((time, reported)) }
        if let reference = recent.last(where: { time.seconds(since: $0.time) >= settings.baseline }) ?? recent.first {
            let elapsed = time.seconds(since: reference.time)
            if elapsed > 0 { speeds.append((time, Geodesic.distance(reference.coordinate, fix.coordinate) / elapsed)) }
        }
        recent.append((time, fix.coordinate))
        // Keep one fix older than the baseline, to measure the next speed against.
        if let keep = recent.lastIndex(where: { time.seconds(since: $0.time) >= settings.baseline }), keep > 0 {
            recent.removeFirst(keep)
        }
        speeds.removeAll { time.seconds(since: $0.time) > settings.window }
    }

    /// The fastest speed measured in the window, nil when none was (a first fix, after a gap).
    public var learnedSpeed: Double? { speeds.map(\.speed).max() }

    /// The approach bound for a device whose activity allows `maximumSpeed`: from the learned
    /// speed with its margin, speeding up at `acceleration` m/s²; the plain maximum when nothing
    /// has been learned, or when the last fix is older than the window at `time`.
    public func approachBound(
        maximumSpeed: Double, acceleration: Double, defaultUncertainty: Double, at time: Timestamp?
    ) -> ApproachBound {
        guard let learnedSpeed, let last = recent.last?.time, let time, time.seconds(since: last) <= settings.window else {
            return ApproachBound(maximumSpeed: maximumSpeed, defaultUncertainty: defaultUncertainty)
        }
        return ApproachBound(
            maximumSpeed: maximumSpeed, defaultUncertainty: defaultUncertainty,
            startSpeed: learnedSpeed * settings.factor + settings.margin, acceleration: acceleration)
    }
}
