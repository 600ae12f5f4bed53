import WaymarkCore

/// A phone's monitoring mode as `GET /v1/status` (each device's `mode`), `waymark devices list`
/// and the web page show it (docs/devices.md, "Batteries"): what Waymark wants, what the phone
/// says, and whether it obeys.
public struct PhoneModeStatus: Codable, Sendable, Equatable {
    /// `off` or `auto` (`devices.power_policy`).
    public var policy: String
    /// `significant` or `move`: the mode Waymark wants; absent before the first report or with
    /// the policy off.
    public var desired: String?
    /// The mode the phone's latest report gave (`m`): `significant`, `move`, `manual`, `quiet`.
    public var reported: String?
    /// RFC 3339: when Waymark last sent a mode command.
    public var lastCommandAt: String?
    /// RFC 3339: when a report first showed the phone in the wanted mode.
    public var confirmedAt: String?
    /// Commands sent for the wanted mode since it was last confirmed.
    public var attempts: Int
    /// The phone did not obey the bounded retries: remote configuration is off on it. It is
    /// still tracked; it is not sent mode commands until it reports the wanted mode.
    public var ignoresCommands: Bool

    public init(
        policy: String, desired: String? = nil, reported: String? = nil, lastCommandAt: Timestamp? = nil, confirmedAt: Timestamp? = nil,
        attempts: Int = 0, ignoresCommands: Bool = false
    ) {
        self.policy = policy
        self.desired = desired
        self.reported = reported
        self.lastCommandAt = lastCommandAt.map(\.secondStart.rfc3339)
        self.confirmedAt = confirmedAt.map(\.secondStart.rfc3339)
        self.attempts = attempts
        self.ignoresCommands = ignoresCommands
    }

    /// One line for a terminal: `mode move, confirmed 2026-…` or `mode move asked 2 times` or
    /// `ignores commands (mode significant wanted, phone in move)`.
    public var summary: String {
        guard policy != "off" else { return "mode policy off" + (reported.map { ", phone in \($0)" } ?? "") }
        guard let desired else { return "mode not decided yet" }
        if ignoresCommands { return "ignores commands (wants \(desired), phone in \(reported ?? "unknown"))" }
        if let confirmedAt { return "mode \(desired), confirmed \(confirmedAt)" }
        return "mode \(desired) asked \(attempts) time\(attempts == 1 ? "" : "s"), phone in \(reported ?? "unknown")"
    }

    var json: String {
        var w = JSONObjectWriter()
        w.add("policy", policy)
        w.add("desired", desired)
        w.add("reported", reported)
        w.add("lastCommandAt", lastCommandAt)
        w.add("confirmedAt", confirmedAt)
        w.add("attempts", attempts)
        w.add("ignoresCommands", ignoresCommands)
        return w.object
    }
}
