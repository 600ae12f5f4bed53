import WaymarkCore
import WaymarkPower
import WaymarkRegions
import WaymarkServices

/// Power-aware sampling, live (docs/semantics.md §4): after a fix, the GNSS schedule (shared with
/// replay) says how long no boundary can be crossed; the daemon stops watching gpsd until a hot
/// start before then. This value decides and remembers; the pipeline does the waiting on its
/// clock and the watching.
///
/// The schedule's wake time is on the fix's timeline (gpsd's time); the sleep is its length
/// from the fix, laid on the daemon's clock from now, so a receiver clock that differs from the
/// system's (or a replayed log) cannot make the daemon sleep too long.
struct GNSSSampler: Sendable {
    let settings: PowerSettings
    /// When the daemon watches gpsd again; nil while it is not sleeping.
    private(set) var sleepingUntil: Timestamp?
    /// Identifies the current sleep, so a wake-up of an earlier, cancelled one is ignored.
    private(set) var generation = 0
    /// The device's speed as the fixes the daemon saw while sampling say (`RecentMotion`), the
    /// same approach bound replay's receiver uses.
    private(set) var motion = RecentMotion()

    init(settings: PowerSettings) { self.settings = settings }

    /// After `fix`, which `monitor` has processed: the instant to watch again, or nil to keep
    /// tracking (a crossing pending, a boundary near, or too short a sleep to be worth it).
    mutating func sleep(
        after fix: Fix, monitor: RegionMonitor, subscriptions: [ServiceSubscription], now: Timestamp
    ) -> Timestamp? {
        guard sleepingUntil == nil, let time = fix.time else { return nil }
        motion.take(fix)
        let schedule = GNSSSchedule(activity: settings.activity, subscriptions: subscriptions, profile: settings.gnssProfile)
        guard let wake = schedule.wake(after: fix, monitor: monitor, motion: motion) else { return nil }
        let resume = now.adding(seconds: wake.seconds(since: time) - schedule.hotStart)
        guard resume > now else { return nil }
        sleepingUntil = resume
        generation += 1
        return resume
    }

    /// The sleep numbered `generation` is over; false when it was cancelled meanwhile.
    mutating func wake(generation: Int) -> Bool {
        guard generation == self.generation, sleepingUntil != nil else { return false }
        sleepingUntil = nil
        return true
    }

    /// Ends any sleep now (continuous fixes became needed); false when it was not sleeping.
    mutating func cancel() -> Bool {
        guard sleepingUntil != nil else { return false }
        sleepingUntil = nil
        generation += 1
        return true
    }
}
