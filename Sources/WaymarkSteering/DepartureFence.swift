import WaymarkCore
import WaymarkRegions
import WaymarkSources

/// A circle the phone is given around the place it stands still (docs/devices.md, "Regions on
/// the phone"), so that it reports when it leaves.
///
/// Why: a phone sent back to significant mode because it has been still for a while
/// (`PhoneModePolicy.stillDuration`) beside a region it cannot watch itself (a polygon, a circle
/// under 100 m) is already inside that region's trigger circle. When it rides on into the
/// region its geofencing fires no transition (it never came in), and its next significant-mode
/// report may come 500 m later: the crossing would be lost. Its own leave transition for this
/// fence is the report that breaks the stillness, and the mode policy sends move mode again.
///
/// The fence has a fixed `rid` and a fixed `tst`: iOS replaces a waypoint by `rid`, Android by
/// `tst`, so a new fence always replaces the previous one on both. It is held in the window's N
/// (the window then holds N − 1 regions). Its transitions name no region Waymark knows, so the
/// evidence code (`RegionMonitor.takeReported`) ignores them and the disagreement view, which
/// compares monitored regions only, does not count them. Pure.
public struct DepartureFence: Sendable, Equatable {
    /// The fence's `rid` and `desc`.
    public static let identifier = "waymark-departure"
    /// The fence's `tst`: 2000-01-01T00:00:00Z, older than any region Waymark imports, and the
    /// same on every fence so Android replaces the last one.
    public static let created = Timestamp(secondsSince1970: 946_684_800)
    /// Metres: the smallest fence, the smallest circle a phone watches faithfully.
    public static let minimumRadius = PhoneGeofence.minimumExactRadius
    /// Metres added to the still radius: the fence lies clear of the still phone's own wander.
    public static let margin = 50.0

    public var center: Coordinate
    public var radius: Double

    /// The fence around a phone still within `stillRadius` metres of `center`.
    public init(center: Coordinate, stillRadius: Double) {
        self.center = center
        self.radius = max(Self.minimumRadius, stillRadius + Self.margin)
    }

    /// Whether `position` lies inside the fence.
    public func contains(_ position: Coordinate) -> Bool { Geodesic.distance(center, position) <= radius }

    /// The waypoint sent to the phone.
    public var waypoint: OwnTracksWaypoint {
        OwnTracksWaypoint(name: Self.identifier, center: center, radius: radius.rounded(.up), created: Self.created, regionID: Self.identifier)
    }
}
