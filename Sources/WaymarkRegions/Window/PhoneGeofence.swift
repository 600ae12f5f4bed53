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
}
