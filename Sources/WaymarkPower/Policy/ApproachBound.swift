/// How soon a device could reach a region boundary: the one rule behind both the local
/// receiver's sleep (`GNSSSchedule`) and a phone's reporting mode (`PhoneModePolicy`). A device
/// whose last fix was `distance` metres from the nearest boundary, with that fix's uncertainty,
/// cannot reach the boundary before it has covered (distance − uncertainty).
///
/// How fast it can cover it: never faster than `maximumSpeed` (the activity's bound). When its
/// recent motion is known (`RecentMotion`), it also starts no faster than `startSpeed` and gains
/// speed at most at `acceleration` — a cyclist at 5 m/s does not ride at 15 m/s a second later,
/// and a parked car needs seconds to reach any speed. Without a start speed it is the plain
/// (distance − uncertainty) ÷ maximum speed. Pure.
public struct ApproachBound: Sendable, Equatable {
    /// Metres per second the device is assumed not to exceed.
    public var maximumSpeed: Double
    /// Uncertainty assumed for a fix that states none (most GPX points), metres.
    public var defaultUncertainty: Double
    /// Metres per second the device may be moving at now (its recent motion with a margin); nil
    /// when unknown, the device may already be at `maximumSpeed`.
    public var startSpeed: Double?
    /// Metres per second per second by which the device's speed may grow from `startSpeed`.
    public var acceleration: Double

    public init(maximumSpeed: Double, defaultUncertainty: Double = 10, startSpeed: Double? = nil, acceleration: Double = .infinity) {
        self.maximumSpeed = maximumSpeed
        self.defaultUncertainty = defaultUncertainty
        self.startSpeed = startSpeed
        self.acceleration = acceleration
    }

    /// The fix's uncertainty as the bound counts it: its stated accuracy, or the default when
    /// it states none (a negative one counts as none stated).
    public func uncertainty(_ stated: Double?) -> Double {
        guard let stated, stated >= 0 else { return defaultUncertainty }
        return stated
    }

    /// Seconds before a device `distance` metres from the boundary (by a fix of `uncertainty`)
    /// could reach it; zero or less when it may already be there.
    public func seconds(toReach distance: Double, uncertainty stated: Double?) -> Double {
        seconds(toCover: distance - uncertainty(stated))
    }

    /// Seconds the device needs at least to cover `metres`: from `startSpeed`, speeding up at
    /// `acceleration` until `maximumSpeed`, then at that speed.
    public func seconds(toCover metres: Double) -> Double {
        guard metres > 0, let startSpeed, acceleration.isFinite, acceleration > 0 else { return metres / maximumSpeed }
        let start = min(max(startSpeed, 0), maximumSpeed)
        let rising = (maximumSpeed - start) / acceleration  // seconds until the maximum speed
        let risingDistance = start * rising + acceleration * rising * rising / 2
        if metres >= risingDistance { return rising + (metres - risingDistance) / maximumSpeed }
        // start·t + a·t²/2 = metres
        return (-start + (start * start + 2 * acceleration * metres).squareRoot()) / acceleration
    }
}
