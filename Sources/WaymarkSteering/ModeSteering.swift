import WaymarkCore
import WaymarkPower

/// The monitoring mode Waymark asks of one phone, and whether the phone obeyed (docs/devices.md,
/// "Batteries"). A pure state machine fed each report in turn: it decides the mode
/// (`PhoneModePolicy`), sends OwnTracks' `setConfiguration` when the phone's `m` differs,
/// confirms from a later report whose `m` is the asked mode, asks again at most
/// `maximumAttempts` times (every `reportsBetweenAttempts` reports, not every report), and then
/// marks the phone as ignoring commands (remote configuration off): it stops asking and keeps
/// tracking it. It asks again when the phone's `m` later matches, or when the wanted mode
/// changes after `quietAfterIgnored` seconds.
public struct ModeSteering: Sendable {
    public let policy: SteeringSettings.PowerPolicy
    public let modePolicy: PhoneModePolicy

    /// Commands sent for one wanted mode before the phone counts as ignoring them.
    public static let maximumAttempts = 3
    /// Reports without the asked mode between two commands: the phone may send a report or two
    /// it took before it read the command (OwnTracks queues reports while offline).
    public static let reportsBetweenAttempts = 3
    /// Seconds after the last command before a phone marked as ignoring commands is asked again
    /// when the wanted mode changes: its user may have turned remote configuration on since.
    public static let quietAfterIgnored = 3600.0

    public private(set) var motion = PhoneMotion()
    /// The mode the policy wants, after the latest report.
    public private(set) var desired: PhoneMode?
    /// OwnTracks' `m` in the latest report (nil when it had none).
    public private(set) var reportedMonitoring: Int?
    /// The mode the last command asked for, and when it was sent.
    public private(set) var commanded: PhoneMode?
    public private(set) var lastCommandAt: Timestamp?
    /// When a report first showed the phone in the wanted mode.
    public private(set) var confirmedAt: Timestamp?
    /// Commands sent for the wanted mode since it was last confirmed.
    public private(set) var attempts = 0
    /// Reports since the last command that did not show the asked mode.
    public private(set) var reportsSinceCommand = 0
    /// The phone did not obey `maximumAttempts` commands: remote configuration is off.
    public private(set) var ignoresCommands = false

    public init(policy: SteeringSettings.PowerPolicy, modePolicy: PhoneModePolicy = .standard) {
        self.policy = policy
        self.modePolicy = modePolicy
    }

    /// The mode the phone says it is in.
    public var reported: PhoneMode? { reportedMonitoring.flatMap(PhoneMode.init(ownTracksMonitoring:)) }

    /// The commands after `report`. `windowEdge`: metres from the report to the nearest region
    /// the phone's window leaves out (`.infinity` without a window), which the phone cannot
    /// watch either.
    public mutating func commands(after report: PhoneReport?, regions: SteeringRegions, windowEdge: Double = .infinity) -> [String] {
        guard let report, let time = report.fix.time else { return [] }
        if let last = motion.last, time < last.time { return [] }  // a late backlog report
        // A transition says nothing of the phone's mode: the last `m` stands.
        if !report.fromTransition { reportedMonitoring = report.monitoringMode }
        guard policy == .auto else { return [] }
        let fix = report.fix
        motion.take(time: time, coordinate: fix.coordinate, accuracy: fix.horizontalAccuracy, reportedSpeed: fix.speed, policy: modePolicy)
        let wanted = modePolicy.mode(
            current: desired ?? reported ?? .significant,
            distance: min(regions.distanceToNearestPreciseBoundary(from: fix.coordinate, limit: reach), max(windowEdge, 0)),
            uncertainty: fix.horizontalAccuracy, speed: motion.speed, stillFor: motion.stillFor(at: time))
        // Nor is it an answer to a command: only a change of the wanted mode is sent after one.
        if report.fromTransition && wanted == desired { return [] }
        return decide(wanted, at: time)
    }

    /// Metres beyond which no boundary can change the policy's answer (twice the exit reach of a
    /// phone at 60 m/s): the distance search stops there.
    var reach: Double { max(modePolicy.enterDistance, 60 * modePolicy.enterHorizon) * modePolicy.exitFactor * 2 }

    /// Confirmation, retries and the ignoring phone, after the policy chose `wanted`.
    mutating func decide(_ wanted: PhoneMode, at time: Timestamp) -> [String] {
        let changed = wanted != desired
        if changed {
            desired = wanted
            confirmedAt = nil
            attempts = 0
        }
        if reported == wanted {
            if confirmedAt == nil { confirmedAt = time }
            attempts = 0
            reportsSinceCommand = 0
            ignoresCommands = false
            return []
        }
        if ignoresCommands {
            guard changed, let last = lastCommandAt, time.seconds(since: last) >= Self.quietAfterIgnored else { return [] }
            ignoresCommands = false
        }
        if commanded == wanted && !changed && attempts > 0 {
            reportsSinceCommand += 1
            guard reportsSinceCommand > Self.reportsBetweenAttempts else { return [] }
            if attempts >= Self.maximumAttempts {
                ignoresCommands = true
                return []
            }
        }
        commanded = wanted
        lastCommandAt = time
        attempts += 1
        reportsSinceCommand = 0
        return [setConfiguration(wanted)]
    }
}
