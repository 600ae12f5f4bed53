/// Where a handler is in its lifecycle (docs/semantics.md §1).
public enum HandlerState: String, Sendable, Equatable {
    /// No process: never launched, or it exited by itself.
    case notRunning
    /// Started by the user (`waymark handlers launch`, or connected without a launch token): no budget.
    case active
    /// Running on a time budget, launched or resumed for events.
    case background
    /// Stopped with SIGSTOP: no code runs until its next event.
    case suspended
    /// Ended by the daemon or by a crash: budget violation, purge, force-quit, crash.
    case terminated
}
