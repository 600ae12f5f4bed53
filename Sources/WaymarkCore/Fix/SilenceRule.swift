/// What a silence in the fixes means (docs/semantics.md §2.6): the one rule visits, automatic
/// pauses, the power model, region crossings and export apply between consecutive fixes.
///
/// Fixes at most `threshold` seconds apart are *continuous*. Further apart there was a silence:
/// many loggers stop recording while the device does not move, phones deliver nothing while
/// still, a receiver loses the sky indoors. Across a silence
/// - a fix within `radius` metres (WGS84 geodesic, inclusive) of the last one is a **stay**: the
///   device was there throughout, and whatever was going on goes on (a visit continues, a pause
///   stays paused, a track is not split);
/// - a fix farther away is a **gap**: the device went somewhere nobody saw, and what was going on
///   ended at the last fix before the silence (a visit departs then, stamped with that fix).
///
/// Defaults: 300 s, the significant-change interval and longer than any logger's interval while
/// it records; 100 m, the visit radius. Untimed fixes are always continuous.
public struct SilenceRule: Sendable, Equatable {
    /// Seconds between fixes beyond which there was a silence.
    public var threshold: Double
    /// Metres within which a fix after a silence continues what was going on.
    public var radius: Double

    public init(threshold: Double = 300, radius: Double = 100) {
        self.threshold = threshold
        self.radius = radius
    }

    /// The defaults.
    public static let standard = SilenceRule()

    public enum Verdict: Sendable, Equatable {
        /// No silence: the fixes are at most `threshold` apart (or untimed).
        case continuous
        /// A silence of this many seconds, ended by a fix within `radius` of the last one.
        case stay(seconds: Double)
        /// A silence of this many seconds, ended by a fix farther away.
        case gap(seconds: Double)
    }

    /// What lies between `previous` and `next`.
    public func judge(from previous: Fix, to next: Fix) -> Verdict {
        guard let silence = silence(from: previous.time, to: next.time) else { return .continuous }
        return Geodesic.distance(previous.coordinate, next.coordinate) <= radius
            ? .stay(seconds: silence) : .gap(seconds: silence)
    }

    /// The silence's seconds when `next` comes more than `threshold` after `previous`; nil otherwise.
    public func silence(from previous: Timestamp?, to next: Timestamp?) -> Double? {
        guard let previous, let next else { return nil }
        let seconds = next.seconds(since: previous)
        return seconds > threshold ? seconds : nil
    }
}
