/// How near a ranged beacon is (Core Location's `CLProximity`), from its estimated distance.
public enum Proximity: String, Sendable, Equatable, CaseIterable {
    /// Under 0.5 m.
    case immediate
    /// 0.5 m to under 3 m.
    case near
    /// 3 m or more.
    case far
    /// No distance: no sighting within the smoothing window, no measured RSSI (0), or a beacon
    /// that does not advertise its measured power.
    case unknown

    /// The class of `distance` metres; nil gives `unknown`.
    public init(distance: Double?) {
        guard let distance else {
            self = .unknown
            return
        }
        self = distance < 0.5 ? .immediate : distance < 3 ? .near : .far
    }
}
