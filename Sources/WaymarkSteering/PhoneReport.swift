import WaymarkCore
import WaymarkSources

/// What steering needs from one phone report (docs/devices.md, "Batteries"): where and when the
/// phone was, how well it knew, how fast it went, and the monitoring mode it says it is in.
public struct PhoneReport: Sendable, Equatable {
    public var fix: Fix
    /// OwnTracks' `m`: 1 significant, 2 move, others (quiet, manual) as sent; nil when absent.
    public var monitoringMode: Int?

    public init(fix: Fix, monitoringMode: Int? = nil) {
        self.fix = fix
        self.monitoringMode = monitoringMode
    }

    /// The last timed location among `messages`, the one a reply answers.
    public static func latest(in messages: [OwnTracksMessage]) -> PhoneReport? {
        var latest: PhoneReport?
        for case .location(let location) in messages {
            guard let time = location.fix.time else { continue }
            if let before = latest?.fix.time, before > time { continue }
            latest = PhoneReport(fix: location.fix, monitoringMode: location.monitoringMode)
        }
        return latest
    }
}
