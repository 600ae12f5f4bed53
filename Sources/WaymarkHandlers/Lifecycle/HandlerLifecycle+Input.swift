import WaymarkCore

extension HandlerLifecycle {
    /// Something that happened, as the shell saw it. Answers to actions (`spawned`,
    /// `queueRead`, `delivered`) come back as inputs too.
    public enum Input: Sendable, Equatable {
        /// The registrations in force (a reload): new ones are added, missing ones terminated
        /// and forgotten, changed ones take effect at their next launch.
        case registered([Registered])
        /// Events were queued for a handler; `reason` is the kind of the newest.
        case eventsQueued(handler: String, reason: String)
        /// The answer to `readQueue`: the kind of the oldest unacknowledged event that may wake
        /// the handler (any but `ranging`), nil when there is none.
        case queueRead(handler: String, wakingKind: String?)
        /// The answer to `spawn`: the process runs.
        case spawned(handler: String)
        /// The answer to `spawn`: it could not be started (a crash, docs/semantics.md §1.5).
        case spawnFailed(handler: String, message: String)
        /// Its process ended with an exit status or a signal.
        case exited(handler: String, code: Int32?, signal: Int32?)
        /// It said `hello` on the socket (a launched process with its right token, or a
        /// handler started by hand).
        case connected(handler: String)
        case disconnected(handler: String)
        /// The answer to `deliver`: the events sent, the last id read (sent or dropped), and
        /// whether more were queued than one `deliveryWindow` (they follow as acknowledgements
        /// come in).
        case delivered(handler: String, sent: [Int64], through: Int64, more: Bool = false)
        /// It acknowledged an event the store still held for it.
        case acknowledged(handler: String, id: Int64)
        case beginBackgroundTask(handler: String, name: String)
        case endBackgroundTask(handler: String, token: String)
        case backgroundTimeRemaining(handler: String)
        case finished(handler: String, useful: Bool?, through: Int64?)
        /// `waymark handlers quit` (the shell has stored the mark).
        case userQuit(handler: String)
        /// `waymark handlers launch` (the shell has cleared the mark).
        case userLaunch(handler: String)
        /// `waymark handlers background NAME`, or the handler's own `enterBackground`: an active
        /// handler moves to the background on a fresh budget.
        case enterBackground(handler: String, byItself: Bool)
        /// The daemon is stopping.
        /// The handler's `finished` said how its fetch went.
        case fetchResult(handler: String, FetchResult)
        /// A reading of the system's memory pressure, with suspended handlers' resident sizes.
        case memoryPressure(MemoryPressure.Level, suspendedSizes: [String: Int])
        case shutdown
        /// After `shutdown`'s notices: SIGTERM to every running handler.
        case terminate
        /// Time passed: only the rules that fall due apply.
        case tick
    }

    /// A registration as stored, with its force-quit mark and its stored standing (used only
    /// when the handler is new to the lifecycle).
    public struct Registered: Sendable, Equatable {
        public var registration: HandlerRegistration
        public var forceQuit: Bool
        public var standing: HandlerStanding

        public init(_ registration: HandlerRegistration, forceQuit: Bool = false, standing: HandlerStanding = HandlerStanding()) {
            self.registration = registration
            self.forceQuit = forceQuit
            self.standing = standing
        }
    }
}
