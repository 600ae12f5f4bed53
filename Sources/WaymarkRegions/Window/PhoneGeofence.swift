/// How a phone's own geofencing sees a region (docs/devices.md, "Batteries"). A phone watches
/// circles only, and below about 100 m Core Location and Android's geofencing are unreliable
/// (Apple's "Monitoring the user's proximity to geographic regions": the system needs room to
/// decide a crossing, and reports one only after the device has stayed past the boundary a
/// while). So a circle of at least `minimumExactRadius` is sent as it is, and the phone's
/// transitions for it are evidence of a crossing; any other region (a polygon, a smaller
/// circle) is sent as a larger *trigger* circle around it, whose transitions only say the phone
/// is near and should report precisely. Pure.
public enum PhoneGeofence {
    /// Metres: the smallest circle a phone watches faithfully.
    public static let minimumExactRadius = 100.0

    /// Whether the phone's transitions for `region`, sent to it as a waypoint, say it crossed
    /// the region's own boundary.
    public static func isExact(_ region: Region) -> Bool {
        if case .circle(_, let radius) = region.shape { return radius >= minimumExactRadius }
        return false
    }

    /// Metres a trigger circle reaches beyond its region by default: the phone should say it is
    /// near before it gets there. iOS reports a crossing only once the device has been past the
    /// boundary a while (about 20 s, and some distance), so a cyclist is reported about 100 m
    /// in; 300 m leaves the mode policy room to switch to move mode before the region itself.
    public static let defaultApproachMargin = 300.0

    /// The circle the phone is sent for `region`: an exact circle as it is; any other region's
    /// `EnclosingCircle` (a small circle's own centre and radius) grown by `approachMargin`,
    /// and at least `minimumExactRadius`. Nil for a beacon region (no position) and for
    /// polygons without vertices.
    public static func circle(for region: Region, approachMargin: Double = defaultApproachMargin) -> EnclosingCircle? {
        switch region.shape {
        case .circle(let center, let radius):
            if radius >= minimumExactRadius { return EnclosingCircle(center: center, radius: radius) }
            return EnclosingCircle(center: center, radius: max(radius + approachMargin, minimumExactRadius))
        case .polygons(let polygons):
            guard let enclosing = EnclosingCircle(polygons) else { return nil }
            return EnclosingCircle(center: enclosing.center, radius: max(enclosing.radius + approachMargin, minimumExactRadius))
        case .beacon:
            return nil
        }
    }
}
