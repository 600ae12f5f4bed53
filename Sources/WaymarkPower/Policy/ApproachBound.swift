/// How soon a device could reach a region boundary: the one rule behind both the local
/// receiver's sleep (`GNSSSchedule`) and a phone's reporting mode (`PhoneModePolicy`). A device
/// whose last fix was `distance` metres from the nearest boundary, with that fix's uncertainty,
/// cannot reach the boundary before (distance − uncertainty) ÷ the speed bound. Pure.
public struct ApproachBound: Sendable, Equatable {
    /// Metres per second the device is assumed not to exceed.
    public var maximumSpeed: Double
    /// Uncertainty assumed for a fix that states none (most GPX points), metres.
    public var defaultUncertainty: Double

    public init(maximumSpeed: Double, defaultUncertainty: Double = 10) {
        self.maximumSpeed = maximumSpeed
        self.defaultUncertainty = defaultUncertainty
    }

    /// The fix's uncertainty as the bound counts it: its stated accuracy, or the default when
    /// it states none (or a negative one).
    public func uncertainty(_ stated: Double?) -> Double {
        guard let stated else { return defaultUncertainty }
        return stated > 0 ? stated : 0
    }

    /// Seconds before a device `distance` metres from the boundary (by a fix of `uncertainty`)
    /// could reach it; zero or less when it may already be there.
    public func seconds(toReach distance: Double, uncertainty stated: Double?) -> Double {
        (distance - uncertainty(stated)) / maximumSpeed
    }
}
