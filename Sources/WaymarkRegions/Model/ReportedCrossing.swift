import WaymarkCore

/// A crossing a device's own geofencing reported (an OwnTracks `transition`: docs/devices.md,
/// "The phone's transitions as evidence"), as the region engine takes it.
public struct ReportedCrossing: Sendable, Equatable {
    /// The region's identifier (`rid`, which `setWaypoints` sets to Waymark's identifier).
    public var identifier: String
    /// Whether the device reported entering (else leaving).
    public var entering: Bool
    /// When the device's geofencing saw it (`tst`).
    public var time: Timestamp
    /// Where the device was then (`lat`, `lon`, `acc`); a report without a position is no evidence.
    public var fix: Fix?

    public init(identifier: String, entering: Bool, time: Timestamp, fix: Fix? = nil) {
        self.identifier = identifier
        self.entering = entering
        self.time = time
        self.fix = fix
    }
}
