import Foundation
import WaymarkCore
import WaymarkStore

/// Quick and honest handlers are favoured (docs/semantics.md §1): each background period is judged when
/// it ends (`HandlerSession`), stored, and the handler's next periods are as long as its
/// standing allows (`HandlerStanding`).
extension HandlerSupervisor {
    /// A launch or resume for events starts a period.
    func openPeriod(_ name: String) {
        runtimes[name]?.period = HandlerRuntime.Period(open: true)
    }

    /// An acknowledgement or a task end: work done for the period.
    func noteWork(_ name: String, acknowledged: Bool) {
        guard runtimes[name]?.period.open == true else { return }
        runtimes[name]!.period.lastWork = clock.now
        if acknowledged { runtimes[name]!.period.acknowledged += 1 }
    }

    /// `finished`: truthful, the period ends now and the handler is suspended (or exits, with
    /// `--exits-on-suspend`) — unless events after `through` were sent meanwhile; otherwise it
    /// is told why the claim is wrong, the period carries on, and will count as misreported.
    /// Ignored while active (no budget to end) or outside a period.
    func finished(_ name: String, useful: Bool?, through: Int64?) {
        guard let runtime = runtimes[name], runtime.state == .background, runtime.period.open else { return }
        runtimes[name]!.period.useful = useful
        let pending = unacknowledgedSent(name)
        if let problem = finishProblem(name, useful: useful, through: through, pending: pending) {
            runtimes[name]!.period.misreported = true
            runtime.connection?.send(HandlerReply.simple("error", [("message", "finished, but \(problem): counted as a misreport")]))
            return
        }
        // Truthful about the events up to `through`, but later ones were sent meanwhile: it has
        // more to do, so the period carries on (and a later `finished` ends it).
        guard pending.isEmpty else { return }
        runtimes[name]!.period.finishedAt = clock.now
        let session = closePeriod(name)
        let work = useful.map { $0 ? ", useful work" : ", nothing useful" } ?? ""
        let reason = "finished after \(Self.seconds(session?.seconds ?? 0)) s\(work)"
        runtime.connection?.send(HandlerReply.simple("willSuspend"))
        runtimes[name]!.willSuspendSent = true
        if runtime.registration.exitsOnSuspend {
            stop(name, reason: "\(reason) (exits on suspend)", signal: SIGTERM)
        } else {
            suspend(name, reason: reason)
        }
    }

    /// Why a `finished` is not true, or nil when it is.
    private func finishProblem(_ name: String, useful: Bool?, through: Int64?, pending: [Int64]) -> String? {
        let runtime = runtimes[name]!
        if !runtime.openTasks.isEmpty { return "\(runtime.openTasks.count) background task(s) are open" }
        let unacknowledged = pending.count { $0 <= through ?? runtime.lastSent }
        if unacknowledged > 0 { return "\(unacknowledged) event(s) it was sent are unacknowledged" }
        if useful == true && runtime.period.acknowledged == 0 { return "it claims useful work and acknowledged no event" }
        return nil
    }

    /// The ids of events sent on this connection that are still unacknowledged.
    private func unacknowledgedSent(_ name: String) -> [Int64] {
        guard let lastSent = runtimes[name]?.lastSent, lastSent > 0 else { return [] }
        return ((try? store.unacknowledgedEvents(handler: name)) ?? []).map(\.id).filter { $0 <= lastSent }
    }

    /// Judges the open period (its time is over, it exited, or it said `finished`), records it
    /// in the standing and the store, and returns it; nil when no period was open.
    @discardableResult
    func closePeriod(_ name: String) -> HandlerSession? {
        guard let runtime = runtimes[name], runtime.period.open, let start = runtime.backgroundStart else { return nil }
        let period = runtime.period
        let now = clock.now
        let session: HandlerSession
        if period.misreported {
            session = HandlerSession(outcome: .misreported, seconds: (now - start).inSeconds, useful: period.useful)
        } else if let finishedAt = period.finishedAt {
            session = HandlerSession(outcome: .quick, seconds: (finishedAt - start).inSeconds, useful: period.useful)
        } else if runtime.openTasks.isEmpty && unacknowledgedSent(name).isEmpty {
            session = HandlerSession(outcome: .quick, seconds: ((period.lastWork ?? start) - start).inSeconds, useful: period.useful)
        } else {
            session = HandlerSession(outcome: .slow, seconds: (now - start).inSeconds, useful: period.useful)
        }
        runtimes[name]!.period.open = false
        runtimes[name]!.standing.record(session)
        do {
            try store.recordHandlerSession(handler: name, StoredHandlerSession(session), at: .now)
        } catch {
            logger.error("Cannot record a handler's session", metadata: ["handler": "\(name)", "error": "\(error)"])
        }
        if session.outcome != .quick {
            let limits = runtimes[name]!.standing.limits(from: runtime.registration.limits)
            logger.info(
                "Handler period was \(session.outcome.rawValue): less background time from now",
                metadata: ["handler": "\(name)", "budget": "\(Self.seconds(limits.budget))", "maximumBackgroundTime": "\(Self.seconds(limits.maximumBackgroundTime))"])
        }
        return session
    }

    /// The stored periods a handler starts with when the daemon (re)loads it.
    func storedStanding(_ name: String) -> HandlerStanding {
        HandlerStanding(stored: (try? store.handlerSessions(handler: name, limit: HandlerStanding.window)) ?? [])
    }

    /// Seconds to one decimal, for logs and reasons.
    static func seconds(_ value: Double) -> String { String(format: "%.1f", value) }
}
