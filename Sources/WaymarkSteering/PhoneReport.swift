import WaymarkCore
import WaymarkSources

/// What steering needs from one phone report (docs/devices.md, "Batteries"): where and when the
/// phone was, how well it knew, how fast it went, and the monitoring mode it says it is in.
public struct PhoneReport: Sendable, Equatable {
    public var fix: Fix
    /// OwnTracks' `m`: 1 significant, 2 move, others (quiet, manual) as sent; nil when absent.
    public var monitoringMode: Int?
    /// The position is a `transition`'s (the phone's geofencing fired; it says nothing of its
    /// mode), from a request that carried no location.
    public var fromTransition: Bool
    /// The request carried the phone's `leave` transition for its departure fence
    /// (`DepartureFence`): it moves again after standing still.
    public var leftDepartureFence: Bool

    public init(fix: Fix, monitoringMode: Int? = nil, fromTransition: Bool = false, leftDepartureFence: Bool = false) {
        self.fix = fix
        self.monitoringMode = monitoringMode
        self.fromTransition = fromTransition
        self.leftDepartureFence = leftDepartureFence
    }

    /// The last timed location among `messages`, the one a reply answers; without one, the
    /// last timed transition's position: a phone in significant mode reports its trigger
    /// circles' transitions alone, and that is when it must be switched to move mode.
    public static func latest(in messages: [OwnTracksMessage]) -> PhoneReport? {
        var latest = latestPosition(in: messages)
        latest?.leftDepartureFence = messages.contains {
            guard case .transition(let transition) = $0 else { return false }
            return transition.event == .leave && (transition.regionID ?? transition.regionName) == DepartureFence.identifier
        }
        return latest
    }

    private static func latestPosition(in messages: [OwnTracksMessage]) -> PhoneReport? {
        var latest: PhoneReport?
        for case .location(let location) in messages {
            guard let time = location.fix.time else { continue }
            if let before = latest?.fix.time, before > time { continue }
            latest = PhoneReport(fix: location.fix, monitoringMode: location.monitoringMode)
        }
        if latest != nil { return latest }
        for case .transition(let transition) in messages {
            guard var fix = transition.fix else { continue }
            fix.time = fix.time ?? transition.time
            if let before = latest?.fix.time, let time = fix.time, before > time { continue }
            latest = PhoneReport(fix: fix, fromTransition: true)
        }
        return latest
    }
}
