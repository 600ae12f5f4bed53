import WaymarkPower

/// How far a phone may move before its next report, by the mode it reports in (docs/devices.md,
/// "Regions on the phone"): the window is refreshed when that, plus the distance already moved
/// from the window's centre and the fix's uncertainty, reaches the window's safe radius. The
/// figures are the mode policy's (`PhoneModePolicy`), so both read the phone alike. Pure.
public struct WindowReach: Sendable, Equatable {
    /// Metres and seconds between significant-mode reports: iOS's significant-change service
    /// reports after about 500 m, and not more than once every 5 minutes.
    public var significantDistance: Double
    public var significantInterval: Double
    /// Seconds and metres between move-mode reports the phone is asked for.
    public var moveInterval: Double
    public var moveDisplacement: Double
    /// How much later than asked a report may come: significant change is not exact (cell and
    /// Wi-Fi positions, the OS's own pace), and a phone in move mode may be slow to report in
    /// the background.
    public var slack: Double
    /// m/s: the least speed assumed (a phone that starts moving between reports), and how much
    /// faster than its last known speed a phone may go before its next report.
    public var minimumSpeed: Double
    public var speedFactor: Double
    /// Metres assumed for a fix that states no accuracy.
    public var defaultUncertainty: Double

    public init(
        significantDistance: Double, significantInterval: Double, moveInterval: Double, moveDisplacement: Double,
        slack: Double = 2, minimumSpeed: Double, speedFactor: Double = 1.5, defaultUncertainty: Double
    ) {
        self.significantDistance = significantDistance
        self.significantInterval = significantInterval
        self.moveInterval = moveInterval
        self.moveDisplacement = moveDisplacement
        self.slack = slack
        self.minimumSpeed = minimumSpeed
        self.speedFactor = speedFactor
        self.defaultUncertainty = defaultUncertainty
    }

    /// The mode policy's figures.
    public init(policy: PhoneModePolicy) {
        self.init(
            significantDistance: policy.significantDistance, significantInterval: policy.significantInterval,
            moveInterval: Double(policy.moveInterval), moveDisplacement: Double(policy.moveDisplacement),
            minimumSpeed: policy.minimumSpeed, defaultUncertainty: policy.defaultUncertainty)
    }

    public static let standard = WindowReach(policy: .standard)

    /// The speed bound for a phone last seen going `speed` m/s (nil when unknown).
    public func bound(speed: Double?) -> ApproachBound {
        ApproachBound(maximumSpeed: max((speed ?? 0) * speedFactor, minimumSpeed), defaultUncertainty: defaultUncertainty)
    }

    /// Metres the phone may cover before its next report in `mode` (nil: a mode Waymark does
    /// not steer to, or none stated, counted as significant, the farther): the distance the
    /// mode reports after, or what the speed bound covers in the time it reports after, the
    /// larger, times `slack`.
    public func budget(mode: PhoneMode?, speed: Double?) -> Double {
        let bound = bound(speed: speed).maximumSpeed
        switch mode ?? .significant {
        case .significant: return slack * max(significantDistance, bound * significantInterval)
        case .move: return slack * max(moveDisplacement, bound * moveInterval)
        }
    }
}
