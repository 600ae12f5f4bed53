import WaymarkCore
import WaymarkRegions

/// An OwnTracks `waypoint`: one region as the apps know it, in either direction — published by
/// the device when a region is created or exported, and sent to it inside `setWaypoints`
/// (`OwnTracksReply`).
///
/// A waypoint is geographic (`lat`, `lon`, `rad`: a circle), a beacon region (`uuid`, with an
/// optional `major` and `minor`), or both.
public struct OwnTracksWaypoint: Sendable, Equatable {
    /// `desc`: the region's name, shown on the device and echoed in transitions.
    public var name: String
    /// `lat`, `lon`: the circle's centre.
    public var center: Coordinate?
    /// `rad`: the circle's radius, metres.
    public var radius: Double?
    /// `tst`: when the region was created. The apps treat it as the region's identity (it
    /// survives edits and comes back as a transition's `wtst`), so it must not change.
    public var created: Timestamp
    /// `rid`: the region ID; iOS replaces the region with the same `rid` on `setWaypoints`.
    public var regionID: String?
    /// `uuid`, `major`, `minor`: the iBeacons the region stands for.
    public var beacon: BeaconIdentity?

    public init(
        name: String, center: Coordinate? = nil, radius: Double? = nil, created: Timestamp,
        regionID: String? = nil, beacon: BeaconIdentity? = nil
    ) {
        self.name = name
        self.center = center
        self.radius = radius
        self.created = created
        self.regionID = regionID
        self.beacon = beacon
    }
}
