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
            rotateLogs()
            checkMemoryPressure()
            let clock = self.clock
            let deadline = nextWake ?? clock.now.adding(seconds: Self.idleSleep)
            let sleep = Task { _ = try? await clock.sleep(until: deadline) }
            sleeper = sleep
            sleepingUntil = deadline
            await withTaskCancellationHandler { await sleep.value } onCancel: { sleep.cancel() }
            sleeper = nil
            sleepingUntil = nil
        }
    }

    /// The lifecycle's next deadline or the next look at the logs, whichever comes first.
    var nextWake: Timestamp? {
        [lifecycle.nextDeadline, nextLogCheck, nextPressureWake].compactMap { $0 }.min()
    }

    /// Handlers whose process runs and is not suspended: they may be writing to their logs.
    private var writingHandlers: [String] {
        processes.keys.filter { name in
            guard let handler = lifecycle.handlers[name] else { return false }
            return handler.running && handler.state != .suspended
        }
    }

    /// When the logs are next looked at: only while a handler may be writing to its own (an
    /// idle or all-suspended daemon does not wake for this), and only when logs are kept.
    private var nextLogCheck: Timestamp? {
        guard settings.logDirectory != nil, !writingHandlers.isEmpty else { return nil }
        return clock.now.adding(seconds: settings.logCheckInterval)
    }

    /// Rotates the logs of handlers that may be writing (`HandlerLog`).
    func rotateLogs() {
        for name in writingHandlers { rotateLog(of: name) }
    }

    func rotateLog(of name: String) {
        guard let directory = settings.logDirectory else { return }
        if HandlerLog(path: "\(directory)/\(name).log", maximumBytes: settings.logMaximumBytes).rotateIfLarge() {
            logger.notice("Rotated a handler's log", metadata: ["handler": "\(name)", "limit.bytes": "\(settings.logMaximumBytes)"])
        }
    }
}
