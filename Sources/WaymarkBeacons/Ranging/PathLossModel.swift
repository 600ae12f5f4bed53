import Foundation

/// Distance from signal strength by the log-distance path-loss model: received power falls by
/// 10·n dB per decade of distance, and the beacon advertises the power received at 1 m
/// (`measuredPower`), so
///
///     d = 10 ^ ((measuredPower − rssi) / (10 · n))   metres
///
/// With n = 2 (free space) a beacon 6 dB weaker than its 1 m power is 2 m away, 20 dB weaker
/// 10 m. Indoors n is 2–4 and bodies and walls add tens of dB, so the figure is a rough guide,
/// which is why ranging reports a proximity class beside it.
public struct PathLossModel: Sendable, Equatable {
    /// The path-loss exponent n.
    public var exponent: Double

    public init(exponent: Double = 2) { self.exponent = exponent }

    /// Metres; nil when either power is unknown (0) or not finite.
    public func distance(rssi: Double, measuredPower: Int8) -> Double? {
        guard rssi != 0, measuredPower != 0, rssi.isFinite else { return nil }
        return pow(10, (Double(measuredPower) - rssi) / (10 * exponent))
    }
}
