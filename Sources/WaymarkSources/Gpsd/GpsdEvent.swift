import WaymarkCore

/// What a ``GpsdSource`` reports, in the order it happened.
public enum GpsdEvent: Sendable, Equatable {
    /// A connection to gpsd was opened (and, if watching, the watch was requested).
    case connected(host: String, port: Int)
    /// A TPV report with a 2D or 3D solution.
    case fix(Fix)
    /// A TPV report without a solution (gpsd `mode` 0 or 1): the receiver is running but has
    /// no position. `time` is the receiver's time when it sent one.
    case gap(time: Timestamp?, reason: String)
    /// gpsd opened (`attached`) or closed a receiver: a DEVICE report, or a change in its
    /// DEVICES list since the first one (docs/semantics.md §1.7; the receivers there when the
    /// source first connects are not reported).
    case receiver(path: String, attached: Bool)
    /// The connection is gone (gpsd absent, stopped or restarted, or the source was stopped).
    /// Reported once per outage; the source keeps retrying until it is stopped.
    case disconnected(reason: String)
}
