import WaymarkCore
import WaymarkRegions

extension OwnTracksWaypoint {
    /// The waypoint an OwnTracks app needs to monitor `region`, with `rid` = the region's
    /// identifier (so transitions come back naming it) and `tst` = `created`, which must stay
    /// the same for the region from one reply to the next: the apps key waypoints on it.
    ///
    /// - A circle of at least 100 m is sent as it is (`PhoneGeofence.isExact`): the phone's
    ///   transitions for it are crossings of the region itself.
    /// - Any other region (polygons, a smaller circle) is sent as its trigger circle
    ///   (`PhoneGeofence.circle(for:)`: the enclosing circle grown by an approach margin), whose
    ///   transitions only say the phone is near; `desc` stays the identifier. (Polygons without
    ///   vertices, which the region decoders never produce, get no circle.)
    /// - Radii are rounded up to whole metres (Android reads `rad` as an integer).
    /// - A beacon region gets `uuid`, `major` and `minor` as the booklet documents them, and no
    ///   position. The iOS app (the only one that monitors beacons) ignores those members when
    ///   importing and reads `desc` as `name:UUID:major:minor` instead, as it writes it itself,
    ///   so `desc` carries that suffix too; a minor without a major (which Core Location cannot
    ///   monitor) is written with major 0.
    ///
    /// iOS cuts `desc` at its first `:` for the region's name; `rid` keeps the full identifier.
    public init(region: Region, created: Timestamp) {
        switch region.shape {
        case .circle, .polygons:
            let circle = PhoneGeofence.circle(for: region)
            self.init(
                name: region.identifier, center: circle?.center, radius: circle?.radius.rounded(.up), created: created,
                regionID: region.identifier)
        case .beacon(let identity):
            var name = region.identifier + ":" + identity.uuid.description
            if identity.major != nil || identity.minor != nil { name += ":\(identity.major ?? 0)" }
            if let minor = identity.minor { name += ":\(minor)" }
            self.init(name: name, created: created, regionID: region.identifier, beacon: identity)
        }
    }
}
