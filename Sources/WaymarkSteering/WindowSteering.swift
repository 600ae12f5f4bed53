import WaymarkCore
import WaymarkPower
import WaymarkRegions
import WaymarkSources

/// The regions one phone holds: the nearest `size` (`RegionWindow`), refreshed as it moves
/// (docs/devices.md, "Regions on the phone"). After each report the window is kept while the
/// phone cannot reach a region outside it before its next report — the distance moved from the
/// window's centre, plus the fix's uncertainty, plus what the phone may cover before it reports
/// again in its mode (`WindowReach`), stays below the safe radius — and remade otherwise, or
/// when the regions change. A remade window holding other regions is sent as
/// `clearWaypoints` then `setWaypoints` with the whole window, so the phone holds exactly it.
/// Pure state, one per device.
public struct WindowSteering: Sendable {
    /// How many regions the phone holds; 0 or less: Waymark sends it none.
    public let size: Int
    public var reach: WindowReach
    /// The window the phone was last sent (or kept, re-centred, when it held the same regions).
    public private(set) var window: RegionWindow?
    /// The identifiers of the regions the phone was last sent, as sent.
    public private(set) var held: [String] = []
    /// The version of the regions `window` was made from.
    public private(set) var version: UInt64?
    /// The departure fence the phone holds besides the window's regions (`DepartureFence`), in
    /// the window's `size`: the window holds one region fewer while it is set.
    public private(set) var fence: DepartureFence?
    /// The last report's position, time and speed, for a request without a location and for
    /// the speed between reports.
    private var last: (coordinate: Coordinate, uncertainty: Double?, time: Timestamp?, speed: Double?)?

    public init(size: Int, reach: WindowReach = .standard) {
        self.size = size
        self.reach = reach
    }

    public mutating func commands(after report: PhoneReport?, regions: SteeringRegions) -> [String] {
        guard size > 0 else { return [] }
        if let report { remember(report) }
        guard let last else { return [] }
        if let window, version == regions.version {
            let mode = report?.monitoringMode.flatMap(PhoneMode.init(ownTracksMonitoring:))
            let uncertainty = reach.bound(speed: last.speed).uncertainty(last.uncertainty)
            if window.clearance(at: last.coordinate, uncertainty: uncertainty) > reach.budget(mode: mode, speed: last.speed) {
                return []
            }
        }
        return refresh(around: last.coordinate, regions: regions)
    }

    /// A new window around `position`: commands only when it holds other regions than the phone
    /// was sent, or the regions changed.
    private mutating func refresh(around position: Coordinate, regions: SteeringRegions) -> [String] {
        let next = RegionWindow(around: position, size: fence == nil ? size : size - 1, index: regions.index, beacons: regions.beacons)
        let identifiers = next.held.map { regions.regions[$0].identifier } + (fence == nil ? [] : [DepartureFence.identifier])
        let unchanged = version == regions.version && Set(identifiers) == Set(held)
        // A phone never sent a region keeps its own until Waymark has one to send.
        let nothingToSay = identifiers.isEmpty && held.isEmpty && version == nil
        window = next
        version = regions.version
        if unchanged || nothingToSay { return [] }
        held = identifiers
        let sent = next.held.map { regions.regions[$0] }
        let extra = fence.map { [$0.waypoint] } ?? []
        return [OwnTracksReply.clearWaypointsCommand]
            + (sent.isEmpty && extra.isEmpty ? [] : [OwnTracksReply.setWaypointsCommand(regions: sent, created: regions.createdAt, extra: extra)])
    }

    /// Sets or drops the departure fence after the mode steering's decision (`PhoneSteering`):
    /// `still` is the fence a still phone near a region it cannot watch needs (nil when it
    /// needs none). A fence is placed when the phone needs one and holds none, or has left the
    /// one it holds; it is dropped once a location report (not a transition) lies outside it
    /// and the phone needs none, so a phone that moved on holds N regions again. A fence that
    /// still holds the phone is kept as it is: resending it on every report of a parked phone
    /// would cost a command per report. The commands re-send the whole window (clear, then set).
    public mutating func place(fence still: DepartureFence?, after report: PhoneReport?, regions: SteeringRegions) -> [String] {
        guard size > 1, let last else { return [] }
        let position = last.coordinate
        if let still {
            if let fence, fence.contains(position) { return [] }
            fence = still
        } else {
            guard let fence, report?.fromTransition == false, !fence.contains(position) else { return [] }
            self.fence = nil
        }
        held = []  // the phone's waypoints change even when the regions do not
        return refresh(around: position, regions: regions)
    }

    private mutating func remember(_ report: PhoneReport) {
        let fix = report.fix
        var speed = fix.speed
        if let previous = last, let before = previous.time, let now = fix.time {
            let seconds = Double(now.nanosecondsSince1970 - before.nanosecondsSince1970) / 1e9
            if seconds > 0 { speed = max(speed ?? 0, Geodesic.distance(previous.coordinate, fix.coordinate) / seconds) }
        }
        last = (fix.coordinate, fix.horizontalAccuracy, fix.time, speed)
    }
}
