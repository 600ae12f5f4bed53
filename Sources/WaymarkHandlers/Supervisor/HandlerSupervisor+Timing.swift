import WaymarkCore

extension HandlerSupervisor {
    /// Longest sleep with nothing due, in seconds: an idle daemon wakes once an hour, not ten
    /// times a second.
    static let idleSleep = 3600.0

    /// Applies the lifecycle's timed rules (docs/semantics.md §1.2–§1.5) at each of its deadlines,
    /// sleeping on the daemon's clock in between, until cancelled. An input that brings a
    /// deadline forward cuts the sleep short (`feed`).
    public func run() async {
        while !Task.isCancelled {
            feed(.tick)
            let clock = self.clock
            let deadline = lifecycle.nextDeadline ?? clock.now.adding(seconds: Self.idleSleep)
            let sleep = Task { _ = try? await clock.sleep(until: deadline) }
            sleeper = sleep
            sleepingUntil = deadline
            await withTaskCancellationHandler { await sleep.value } onCancel: { sleep.cancel() }
            sleeper = nil
            sleepingUntil = nil
        }
    }
}
