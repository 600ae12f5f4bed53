import WaymarkCore
import WaymarkStore

extension HandlerStanding {
    /// From the periods the store kept, oldest first (an unknown outcome is skipped).
    public init(stored: [StoredHandlerSession]) {
        self.init(sessions: stored.compactMap { session in
            HandlerSession.Outcome(rawValue: session.outcome).map { HandlerSession(outcome: $0, seconds: session.seconds, useful: session.useful) }
        })
    }
}

extension StoredHandlerSession {
    init(_ session: HandlerSession) {
        self.init(outcome: session.outcome.rawValue, seconds: session.seconds, useful: session.useful)
    }
}
