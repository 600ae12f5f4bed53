import WaymarkCore
import WaymarkRegions

extension OwnTracksWaypoint {
    /// The waypoint an OwnTracks app needs to monitor `region`, with `rid` = the region's
    /// identifier (so transitions come back naming it) and `tst` = `created`, which must stay
    /// the same for the region from one reply to the next: the apps key waypoints on it.
    ///
    /// - A circle keeps its centre; its radius is rounded up to whole metres (Android reads
    ///   `rad` as an integer).
    /// - Polygons become an `EnclosingCircle` around their exterior rings, so the device
    ///   reports entering a little early and leaving a little late; `desc` stays the identifier.
    ///   (Polygons without vertices, which the region decoders never produce, get no circle.)
    /// - A beacon region gets `uuid`, `major` and `minor` as the booklet documents them, and no
    ///   position. The iOS app (the only one that monitors beacons) ignores those members when
    ///   importing and reads `desc` as `name:UUID:major:minor` instead, as it writes it itself,
    ///   so `desc` carries that suffix too; a minor without a major (which Core Location cannot
    ///   monitor) is written with major 0.
    ///
    /// iOS cuts `desc` at its first `:` for the region's name; `rid` keeps the full identifier.
    public init(region: Region, created: Timestamp) {
        switch region.shape {
        case .circle(let center, let radius):
            self.init(
                name: region.identifier, center: center, radius: radius.rounded(.up), created: created,
                regionID: region.identifier)
        case .polygons(let polygons):
            let circle = EnclosingCircle(polygons)
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
