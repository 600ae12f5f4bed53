import WaymarkCore
import WaymarkRegions

/// When the GNSS may sleep (SEMANTICS §4): after a fix, no region boundary can be crossed
/// before (distance to the nearest boundary − the fix's uncertainty) ÷ the activity's maximum
/// speed, so the receiver can be off until a hot start before then. Significant change and visits
/// add their own circles (500 m, and the visit radius, around the fix), so they get a fix at
/// least as often as the device could leave them. Pure.
struct GNSSSchedule: Sendable {
    /// Metres per second no device of the activity exceeds.
    let maximumSpeed: Double
    /// Seconds from power-on to the first fix (the profile's hot start).
    let hotStart: Double
    /// Sleeping less than this is not worth a restart.
    let minimumSleep: Double
    /// Uncertainty assumed for a fix that reports none (most GPX points), metres.
    let defaultUncertainty: Double
    /// Radii of the circles around the fix that other services need (significant change, visits).
    let serviceRadii: [Double]
    /// Longest sleep, seconds (and the boundary search's reach follows from it).
    let maximumSleep: Double

    /// The time by which the receiver must have a fix again after `fix`, or nil to keep
    /// tracking (a crossing is pending, or a boundary is too near to be worth sleeping).
    func wake(after fix: Fix, index: RegionIndex, crossingPending: Bool) -> Timestamp? {
        guard !crossingPending, let time = fix.time else { return nil }
        let reach = maximumSleep * maximumSpeed
        var distance = index.count == 0 ? reach : index.distanceToNearestBoundary(from: fix.coordinate, limit: reach)
        for radius in serviceRadii { distance = min(distance, radius) }
        let uncertainty = fix.horizontalAccuracy.map { $0 > 0 ? $0 : 0 } ?? defaultUncertainty
        let safe = (distance - uncertainty) / maximumSpeed
        guard safe - hotStart >= minimumSleep else { return nil }
        return time.adding(seconds: min(safe, maximumSleep))
    }
}
