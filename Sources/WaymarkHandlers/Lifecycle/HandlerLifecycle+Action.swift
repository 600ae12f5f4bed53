extension HandlerLifecycle {
    /// What the shell must do. `spawn`, `readQueue` and `deliver` are answered with an input.
    public enum Action: Sendable, Equatable {
        /// Start the handler's process with `WAYMARK_LAUNCH_REASON` `reason`; answer `spawned`
        /// or `spawnFailed`.
        case spawn(handler: String, reason: String)
        /// Signal its process group (SIGSTOP to suspend, SIGCONT to resume).
        case signal(handler: String, Int32)
        /// End its process with SIGTERM or SIGKILL, for `reason`.
        case kill(handler: String, Int32, reason: String)
        case send(handler: String, Message)
        /// Send the queued events after id `after` on its connection; answer `delivered`.
        case deliver(handler: String, after: Int64)
        /// Look at its queue; answer `queueRead`.
        case readQueue(handler: String)
        /// Close its connection.
        case close(handler: String)
        /// It is no longer registered: drop its process and connection.
        case forget(handler: String)
        /// Log the state change and store it (`handlers log`).
        case logState(handler: String, HandlerState, reason: String)
        /// Store a judged background period (`handler_sessions`).
        case recordSession(handler: String, HandlerSession)
        /// Store its force-quit mark.
        case persistForceQuit(handler: String, Bool)
        /// Store its acknowledgement of event `id` (the shell may batch these; it must store
        /// them before it next reads the handler's queue).
        case storeAcknowledgement(handler: String, id: Int64)
        /// Queue a `fetch` event for it (durably), then tell the lifecycle it was queued.
        case queueFetch(handler: String)
    }

    /// A message from the daemon to a handler (docs/handlers.md).
    public enum Message: Sendable, Equatable {
        case welcome(launchReason: String, state: HandlerState, remaining: Double?)
        case willSuspend
        case didResume
        case didBecomeActive
        /// It left `active` for `background`: its budget runs from now.
        case didEnterBackground
        /// The daemon is shutting down: SIGTERM follows.
        case willTerminate
        /// The system is short of memory: free what can be freed.
        case didReceiveMemoryWarning
        /// One per open background task, `expirationNotice` before the end of background time.
        case expiration(token: String, name: String, remaining: Double)
        case backgroundTask(token: String, name: String, remaining: Double?)
        case backgroundTaskEnded(token: String, remaining: Double?)
        case backgroundTimeRemaining(Double?)
        case error(String)
    }
}
