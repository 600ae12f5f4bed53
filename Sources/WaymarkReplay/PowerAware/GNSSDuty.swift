import WaymarkCore
import WaymarkPower

/// What the GNSS receiver does during a replay, on the track's timeline: always tracking
/// (continuous), or off between fixes when the schedule allows (power-aware). The energy
/// ledger prices it.
///
/// The model: the track is what a receiver that was on all along recorded, and the device was
/// where the track says at every moment (linear between recorded points — a smart-recording
/// logger stores a point when the path bends, and nothing while it stands still). While it
/// tracks, the receiver has a fix every second, the recorded points and the ones between them
/// (`GNSSDuty+ReceiverFixes.swift`); while off, it sees none. At each wake it powers on a hot
/// start early and gets one fix, at the device's position then, which goes through the engine
/// like any fix (as it would live): the restart costs the hot start's time at the acquisition
/// current. If the schedule allows, the receiver goes off again at once, else it keeps
/// tracking. Long silences in the recording are pauses (`GNSSDuty+Silences.swift`).
struct GNSSDuty {
    var ledger: EnergyLedger
    let profile: PowerProfile
    let schedule: GNSSSchedule?
    var wakeAt: Timestamp?
    var previous: Fix?
    /// The device's speed as the fixes the receiver had say, for the schedule's approach bound.
    var motion = RecentMotion()
    private(set) var first: Timestamp?
    private(set) var last: Timestamp?
    var unseen = 0
    var wakes = 0
    /// Seconds of silences in the recording (`GNSSDuty+Silences.swift`).
    var silent = 0.0

    init(profile: PowerProfile, schedule: GNSSSchedule?) {
        self.profile = profile
        self.schedule = schedule
        ledger = EnergyLedger(profiles: [profile])
    }

    var hotStart: Double { profile.startTimes["hot"] ?? 1 }

    /// When the receiver wakes before the recorded `fix`: powers it on and returns its fix at
    /// the wake time (the device's position then), which the caller processes like any fix and
    /// then `decide`s on. Nil while it sleeps past `fix`, or when `fix` is itself at the wake time.
    mutating func wakeFix(before fix: Fix) -> Fix? {
        guard let next = wakeAt, let time = fix.time, time >= next, !isSilence(before: fix) else { return nil }
        powerOn(at: next)
        wakeAt = nil
        wakes += 1
        return position(at: next, before: fix)
    }

    /// Whether the receiver sees the recorded `fix`: false while it sleeps. Untimed fixes are
    /// always seen.
    mutating func sees(_ fix: Fix) -> Bool {
        guard let time = fix.time else { return true }
        defer {
            previous = fix
            first = min(first ?? time, time)
            last = max(last ?? time, time)
        }
        if first == nil { powerOn(at: time) }
        if isSilence(before: fix) {
            resume(afterSilenceUntil: time)
            return true
        }
        if let next = wakeAt, time < next {
            unseen += 1
            return false
        }
        return true
    }

    /// After a fix: off until the schedule's wake time, or keep tracking (nil).
    mutating func decide(after fix: Fix, wake: Timestamp?) {
        guard let wake, let time = fix.time, wake > time else { return }
        try? ledger.set(.gnss, to: "off", at: time)
        wakeAt = wake
    }

    mutating func powerOn(at time: Timestamp) {
        try? ledger.set(.gnss, to: "acquiring", at: time.adding(seconds: -hotStart))
        try? ledger.set(.gnss, to: "tracking", at: time)
    }

    /// The figures for the summary, the ledger closed at the last fix.
    mutating func figures() -> ReplaySummary.PowerFigures? {
        guard let first, let last else { return nil }
        let end = max(last, ledger.latestChange ?? last)
        try? ledger.close(at: end)
        return ReplaySummary.PowerFigures(
            profile: profile.name, mode: schedule == nil ? "continuous" : "powerAware",
            gpsOnSeconds: ledger.seconds(.gnss, in: "tracking") + ledger.seconds(.gnss, in: "acquiring"),
            durationSeconds: last.seconds(since: first), unseenFixes: unseen, wakes: wakes, silentSeconds: silent,
            joules: [Radio.gnss.rawValue: ledger.joules(radio: .gnss)])
    }
}
