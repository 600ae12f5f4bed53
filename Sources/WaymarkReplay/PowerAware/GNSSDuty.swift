import WaymarkCore
import WaymarkPower

/// What the GNSS receiver does during a replay, on the track's timeline: always tracking
/// (continuous), or off between fixes when the schedule allows (power-aware), with a hot
/// start before each wake. Fixes while it is off are not seen. The energy ledger prices it.
struct GNSSDuty {
    private(set) var ledger: EnergyLedger
    let profile: PowerProfile
    let schedule: GNSSSchedule?
    private var wakeAt: Timestamp?
    private(set) var first: Timestamp?
    private(set) var last: Timestamp?
    private(set) var unseen = 0

    init(profile: PowerProfile, schedule: GNSSSchedule?) {
        self.profile = profile
        self.schedule = schedule
        ledger = EnergyLedger(profiles: [profile])
    }

    private var hotStart: Double { profile.startTimes["hot"] ?? 1 }

    /// Whether the receiver sees `fix`: false while it sleeps. Untimed fixes are always seen.
    mutating func sees(_ fix: Fix) -> Bool {
        guard let time = fix.time else { return true }
        last = time  // the track's duration counts every fix read, seen or not
        if first == nil {
            first = time
            try? ledger.set(.gnss, to: "acquiring", at: time.adding(seconds: -hotStart))
            try? ledger.set(.gnss, to: "tracking", at: time)
        }
        if let wake = wakeAt {
            guard time >= wake else {
                unseen += 1
                return false
            }
            try? ledger.set(.gnss, to: "acquiring", at: wake.adding(seconds: -hotStart))
            try? ledger.set(.gnss, to: "tracking", at: wake)
            wakeAt = nil
        }
        return true
    }

    /// After a seen fix: sleep until the schedule's wake time, or keep tracking.
    mutating func decide(after fix: Fix, wake: Timestamp?) {
        guard let wake, let time = fix.time else { return }
        try? ledger.set(.gnss, to: "off", at: time)
        wakeAt = wake
    }

    /// The figures for the summary, the ledger closed at the last fix seen.
    mutating func figures() -> ReplaySummary.PowerFigures? {
        guard let first, let last else { return nil }
        let end = max(last, ledger.latestChange ?? last)
        try? ledger.close(at: end)
        return ReplaySummary.PowerFigures(
            profile: profile.name, mode: schedule == nil ? "continuous" : "powerAware",
            gpsOnSeconds: ledger.seconds(.gnss, in: "tracking") + ledger.seconds(.gnss, in: "acquiring"),
            durationSeconds: last.seconds(since: first), unseenFixes: unseen,
            joules: [Radio.gnss.rawValue: ledger.joules(radio: .gnss)])
    }
}
