import WaymarkCore
import WaymarkStore

extension HandlerStanding {
    /// From the periods the store kept, oldest first (an unknown outcome is skipped).
    public init(stored: [StoredHandlerSession]) {
        self.init(sessions: stored.compactMap { session in
            HandlerSession.Outcome(rawValue: session.outcome).map { HandlerSession(outcome: $0, seconds: session.seconds, useful: session.useful) }
        })
    }

    /// `{"periods":N,"quick":N,"slow":N,"misreported":N,"share":F,"medianQuickSeconds":S|null}`,
    /// as `waymark handlers list --json` and `GET /v1/handlers` give it.
    public var json: String {
        var w = JSONObjectWriter()
        w.add("periods", sessions.count)
        w.add("quick", count(.quick))
        w.add("slow", count(.slow))
        w.add("misreported", count(.misreported))
        w.add("share", share)
        w.add("medianQuickSeconds", medianQuickSeconds)
        return w.object
    }
}

extension StoredHandlerSession {
    init(_ session: HandlerSession) {
        self.init(outcome: session.outcome.rawValue, seconds: session.seconds, useful: session.useful)
    }
}
