/// Holds each fix back until its moment on the wall clock: the track's time since its first
/// timed fix, divided by the speed factor. Untimed fixes and fixes whose moment has passed
/// (time going backwards, a slow consumer) go out at once. The clock is injected so tests run
/// instantly.
public struct ReplayPacer<C: Clock> where C.Duration == Duration {
    public let clock: C
    /// Speed factor: 1 is real time, 10 ten times faster.
    public let factor: Double
    private var origin: (track: Timestamp, wall: C.Instant)?

    public init(clock: C, factor: Double) {
        self.clock = clock
        self.factor = factor
    }

    /// Returns when the fix stamped `time` is due.
    public mutating func wait(for time: Timestamp?) async throws {
        guard let time else { return }
        guard let origin else {
            origin = (time, clock.now)
            return
        }
        let offset = time.seconds(since: origin.track) / factor
        guard offset > 0 else { return }
        let deadline = origin.wall.advanced(by: .nanoseconds(Int64(offset * 1e9)))
        if deadline > clock.now { try await clock.sleep(until: deadline, tolerance: nil) }
    }
}
