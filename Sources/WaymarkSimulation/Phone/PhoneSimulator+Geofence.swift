import WaymarkCore

/// A waypoint on the phone and the OS's view of it: inside or outside, and since when the
/// phone has been past the boundary the other way.
public struct HeldWaypoint: Sendable, Equatable {
    public var waypoint: PhoneWaypoint
    /// nil until the OS has taken the region's state (silently, when it starts watching it).
    public var inside: Bool?
    var pastSince: Timestamp?

    init(waypoint: PhoneWaypoint) { self.waypoint = waypoint }
}

extension PhoneSimulator {
    /// The waypoints the OS watches: the first circles up to the per-app limit (iOS refuses
    /// more; the app's later ones go unwatched).
    var watchedIndices: [Int] {
        var indices: [Int] = []
        for (index, held) in waypoints.enumerated() where held.waypoint.circle != nil {
            guard indices.count < settings.monitoredRegionLimit else { break }
            indices.append(index)
        }
        return indices
    }

    /// The keys (`rid`, else `desc`) of the waypoints the OS watches now.
    public var watchedKeys: Set<String> { Set(watchedIndices.map { waypoints[$0].waypoint.key }) }

    /// The OS's geofencing at one second: a crossing once past the boundary by the margin for
    /// the dwell, uninterrupted.
    mutating func watchRegions(at sample: PhoneTruth.Sample) {
        for index in watchedIndices {
            guard let circle = waypoints[index].waypoint.circle else { continue }
            let distance = Geodesic.distance(sample.coordinate, circle.center)
            guard let inside = waypoints[index].inside else {
                waypoints[index].inside = distance <= circle.radius
                continue
            }
            let past = inside
                ? distance >= circle.radius + settings.geofenceMargin
                : distance <= circle.radius - min(settings.geofenceMargin, circle.radius / 2)
            guard past else {
                waypoints[index].pastSince = nil
                continue
            }
            let since = waypoints[index].pastSince ?? sample.time
            waypoints[index].pastSince = since
            guard sample.time.seconds(since: since) >= settings.geofenceDwell else { continue }
            waypoints[index].inside = !inside
            waypoints[index].pastSince = nil
            let event = inside ? "leave" : "enter"
            account.transitions += 1
            account.transitionsByEvent[event, default: 0] += 1
            emit(observe(sample, kind: .transition(event: event, waypoint: waypoints[index].waypoint)))
        }
    }
}
