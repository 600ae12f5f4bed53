import WaymarkCore
import WaymarkRegions
import WaymarkServices

/// The schedule as replay and the daemon both use it: built from what is subscribed, and asked
/// after each fix the region engine has seen.
extension GNSSSchedule {
    /// The schedule for `subscriptions` at `activity`'s speed bound, with `profile`'s hot start:
    /// significant change adds a circle of its distance (a fix at least as often as the device
    /// could leave it), visits a circle of their radius.
    public init(activity: ActivityType, subscriptions: [ServiceSubscription], profile: PowerProfile) {
        var radii: [Double] = []
        for services in subscriptions {
            if let significant = services.significantChange { radii.append(significant.minimumDistance) }
            if let visits = services.visits { radii.append(visits.radius) }
        }
        self.init(maximumSpeed: activity.maximumSpeed, hotStart: profile.startTimes["hot"] ?? 1, serviceRadii: radii)
    }

    /// The wake time after `fix`, which `monitor` has just processed: the distance to its nearest
    /// boundary (within `reach`), and no sleep while a crossing is pending (a raw side that
    /// differs from the confirmed one).
    public func wake(after fix: Fix, monitor: RegionMonitor) -> Timestamp? {
        let nearest = monitor.index.count == 0
            ? reach : monitor.index.distanceToNearestBoundary(from: fix.coordinate, limit: reach)
        return wake(after: fix, nearestBoundary: nearest, crossingPending: monitor.raw != monitor.inside)
    }
}
