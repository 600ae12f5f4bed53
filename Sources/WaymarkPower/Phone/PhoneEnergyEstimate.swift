/// What a phone's tracking cost over a span, as `PhoneEnergyModel` prices it: joules by radio
/// (GNSS for move mode, Wi-Fi for network fixes and reports over Wi-Fi, cellular for reports over
/// mobile data) and how the span divides between the modes. Energies are the tracking's share only:
/// what the phone would not have spent without Waymark's reports and fixes.
public struct PhoneEnergyEstimate: Sendable, Equatable {
    /// Joules by radio.
    public var joules: [Radio: Double] = [:]
    /// Seconds in move mode (the GNSS on).
    public var moveSeconds = 0.0
    /// Seconds in significant mode (network fixes, the GNSS off).
    public var significantSeconds = 0.0
    /// Seconds in no known mode (no `m`, or a move-mode phone silent for too long): not priced
    /// for the GNSS, because Waymark cannot tell whether it was on.
    public var unknownSeconds = 0.0
    /// Reports seen, and how many of them came offline (queued and sent with a later one).
    public var reports = 0
    public var queuedReports = 0
    /// Network fixes priced (one per report in significant mode).
    public var networkFixes = 0
    /// The profiles that priced it (`phone-gnss + phone-wifi + phone-lte`).
    public var profile = ""

    public init() {}

    /// Seconds from the first thing seen to the close.
    public var durationSeconds: Double { moveSeconds + significantSeconds + unknownSeconds }

    /// Joules on all radios.
    public var total: Double { joules.values.reduce(0, +) }

    /// Mean power over the span, in joules an hour (0 for an empty span).
    public var joulesPerHour: Double { durationSeconds > 0 ? total / durationSeconds * 3600 : 0 }

    /// What was spent between an earlier estimate of the same phone and this one (the daemon
    /// stores the difference since its last flush in the current hour's bucket).
    public func since(_ earlier: PhoneEnergyEstimate) -> PhoneEnergyEstimate {
        var delta = self
        for (radio, value) in earlier.joules { delta.joules[radio, default: 0] -= value }
        delta.moveSeconds -= earlier.moveSeconds
        delta.significantSeconds -= earlier.significantSeconds
        delta.unknownSeconds -= earlier.unknownSeconds
        delta.reports -= earlier.reports
        delta.queuedReports -= earlier.queuedReports
        delta.networkFixes -= earlier.networkFixes
        return delta
    }

    /// The sum of two spans' estimates (hourly buckets added up).
    public static func + (lhs: PhoneEnergyEstimate, rhs: PhoneEnergyEstimate) -> PhoneEnergyEstimate {
        var sum = lhs
        for (radio, value) in rhs.joules { sum.joules[radio, default: 0] += value }
        sum.moveSeconds += rhs.moveSeconds
        sum.significantSeconds += rhs.significantSeconds
        sum.unknownSeconds += rhs.unknownSeconds
        sum.reports += rhs.reports
        sum.queuedReports += rhs.queuedReports
        sum.networkFixes += rhs.networkFixes
        if sum.profile.isEmpty { sum.profile = rhs.profile }
        return sum
    }
}
