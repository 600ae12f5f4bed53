import WaymarkCore

/// How an output thins a device's fixes to the locations it publishes (docs/outputs.md): at
/// most one per `interval` seconds of the fixes' own time, and never the last one lost.
///
/// A fix less than `interval` after the device's last published one waits (it is the device's
/// *pending* fix, replaced by any later one). It goes out when a later fix of the device is due
/// instead, or, if none comes, `interval` seconds of the worker's clock after the device first
/// had one waiting: a device that stops reporting is shown where it stopped, late by at most
/// the interval. Pure: the caller passes its clock (`now`, seconds on any monotonic scale).
public struct LocationThinning: Sendable {
    /// Seconds; 0 publishes every fix.
    public let interval: Double
    private var lastPublished: [String: Timestamp] = [:]
    private var pending: [String: (fix: OutputFix, due: Double)] = [:]

    public init(interval: Double) { self.interval = max(0, interval) }

    /// The fix to publish now, or nil when it waits.
    public mutating func offer(_ fix: OutputFix, now: Double) -> OutputFix? {
        if interval > 0, let last = lastPublished[fix.device], fix.time >= last,
            fix.time.secondsSince1970 - last.secondsSince1970 < interval
        {
            pending[fix.device] = (fix, pending[fix.device]?.due ?? now + interval)
            return nil
        }
        pending[fix.device] = nil
        lastPublished[fix.device] = fix.time
        return fix
    }

    /// The waiting fixes due at `now`, oldest first, counted as published.
    public mutating func due(now: Double) -> [OutputFix] {
        let ready = pending.values.filter { $0.due <= now }.map(\.fix).sorted { $0.sequence < $1.sequence }
        for fix in ready {
            pending[fix.device] = nil
            lastPublished[fix.device] = fix.time
        }
        return ready
    }

    /// When the next waiting fix falls due, nil when none waits.
    public var nextDue: Double? { pending.values.map(\.due).min() }

    /// The oldest waiting fix's row: a saved cursor must stay before it, or a restart loses it.
    public var oldestWaiting: Int64? { pending.values.map(\.fix.sequence).min() }
}
