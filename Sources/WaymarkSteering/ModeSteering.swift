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
    /// The departure fence the phone needs after the latest report (`DepartureFence`): nil
    /// unless it is still, in significant mode, within move mode's reach of a region it cannot
    /// watch. `PhoneSteering` gives it to the window.
    public private(set) var stillFence: DepartureFence?

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
        // The phone left the circle it was given where it stood still: it moves again.
        if report.leftDepartureFence { motion.restartStill(at: time, coordinate: fix.coordinate, accuracy: fix.horizontalAccuracy, policy: modePolicy) }
        let precise = regions.distanceToNearestPreciseBoundary(from: fix.coordinate, limit: reach)
        let current = report.leftDepartureFence ? .move : desired ?? reported ?? .significant
        let wanted = modePolicy.mode(
            current: current, distance: min(precise, max(windowEdge, 0)),
            uncertainty: countedUncertainty(of: fix, current: current), speed: motion.speed, stillFor: motion.stillFor(at: time))
        stillFence = wanted == .significant ? departureFence(distance: precise, speed: motion.speed, at: time) : nil
        // Nor is it an answer to a command: only a change of the wanted mode is sent after one.
        if report.fromTransition && wanted == desired { return [] }
        return decide(wanted, at: time)
    }

    /// The fix's uncertainty as the policy counts it. A phone that reports in significant mode,
    /// as Waymark wants, is judged on its fix's position alone: its coarse network fixes
    /// (65–200 m) would otherwise bring it "within reach" of a boundary it has not come nearer
    /// to, and undo the switch a second after the phone confirmed it. That is safe because in
    /// significant mode the trigger circle the phone holds for each region it cannot watch (300 m
    /// past the region, `PhoneGeofence`) makes it report as it truly comes near, and where it
    /// stood still inside one the departure fence makes it report its leaving; a fix whose
    /// position itself lies within reach (real movement toward the boundary) still sends it to
    /// move mode.
    func countedUncertainty(of fix: Fix, current: PhoneMode) -> Double? {
        current == .significant && reported == .significant ? 0 : fix.horizontalAccuracy
    }

    /// The departure fence a phone sent to (or kept in) significant mode needs: one when it is
    /// so only because it is still (`PhoneModePolicy.stillDuration`) and, moving, it would be
    /// within move mode's reach (the exit band) of a region it cannot watch — it is then inside
    /// that region's trigger circle, which will fire no transition when it rides on in.
    func departureFence(distance: Double, speed: Double?, at time: Timestamp) -> DepartureFence? {
        guard motion.stillFor(at: time) >= modePolicy.stillDuration, let centre = motion.stillCentre else { return nil }
        let moving = modePolicy.mode(current: .move, distance: distance, uncertainty: 0, speed: speed, stillFor: 0)
        return moving == .move ? DepartureFence(center: centre, stillRadius: motion.stillRadius(modePolicy)) : nil
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
