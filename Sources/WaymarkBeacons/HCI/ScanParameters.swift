/// How the receiver scans for advertisements: it listens for `window` out of every `interval`.
/// The power ledger (docs/semantics.md §4) charges Bluetooth LE scanning its receive current times
/// `dutyCycle`.
public struct ScanParameters: Sendable, Equatable {
    /// Seconds between the starts of two scan windows (HCI: 2.5 ms … 10.24 s in 0.625 ms steps).
    public var interval: Double
    /// Seconds of listening in each interval (≤ interval).
    public var window: Double
    /// Active scanning asks advertisers for scan responses; iBeacons need none, so passive.
    public var active: Bool

    /// 100 ms interval, 50 ms window: half the radio time. A beacon advertising every 100 ms
    /// (the iBeacon recommendation) is heard about five times a second, enough to range once a
    /// second and to notice an exit within the 30 s timeout.
    public static let `default` = ScanParameters(interval: 0.1, window: 0.05)

    public init(interval: Double, window: Double, active: Bool = false) {
        self.interval = interval
        self.window = window
        self.active = active
    }

    /// The fraction of time the receiver listens: window ÷ interval.
    public var dutyCycle: Double { window / interval }

    /// Why the controller would refuse these parameters, or nil.
    public var problem: String? {
        let units = (interval: (interval / 0.000625).rounded(), window: (window / 0.000625).rounded())
        if !(interval.isFinite && window.isFinite) { return "the scan interval and window must be finite" }
        if units.interval < 4 || units.interval > 0x4000 { return "the scan interval must be 2.5 ms … 10.24 s, not \(interval) s" }
        if units.window < 4 || units.window > 0x4000 { return "the scan window must be 2.5 ms … 10.24 s, not \(window) s" }
        if units.window > units.interval { return "the scan window (\(window) s) cannot be longer than the interval (\(interval) s)" }
        return nil
    }

    /// HCI units of 0.625 ms.
    var intervalUnits: UInt16 { UInt16((interval / 0.000625).rounded()) }
    var windowUnits: UInt16 { UInt16((window / 0.000625).rounded()) }
}
