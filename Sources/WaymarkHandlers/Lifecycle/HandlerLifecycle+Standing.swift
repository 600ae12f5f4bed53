import Foundation
import WaymarkCore

/// Quick and honest handlers are favoured (docs/semantics.md §1.3): each background period is
/// judged when it ends (`HandlerSession`), stored, and the handler's next periods are as long
/// as its standing allows (`HandlerStanding`).
extension HandlerLifecycle {
    /// A launch or resume for events starts a period.
    mutating func openPeriod(_ name: String) {
        handlers[name]?.period = Period(open: true)
    }

    /// An acknowledgement or a task end: work done for the period.
    mutating func noteWork(_ name: String, acknowledged: Bool) {
        guard handlers[name]?.period.open == true else { return }
        handlers[name]!.period.lastWork = now
        if acknowledged { handlers[name]!.period.acknowledged += 1 }
    }

    /// `finished`: truthful, the period ends now and the handler is suspended (or exits, with
    /// `--exits-on-suspend`) — unless events after `through` were sent meanwhile; otherwise it
    /// is told why the claim is wrong, the period carries on, and will count as misreported.
    /// Ignored while active (no budget to end) or outside a period.
    mutating func finished(_ name: String, useful: Bool?, through: Int64?) {
        guard let handler = handlers[name], handler.state == .background, handler.period.open else { return }
        handlers[name]!.period.useful = useful
        if let problem = finishProblem(handler, useful: useful, through: through) {
            handlers[name]!.period.misreported = true
            send(name, .error("finished, but \(problem): counted as a misreport"))
            return
        }
        // Truthful about the events up to `through`, but later ones were sent meanwhile: it has
        // more to do, so the period carries on (and a later `finished` ends it).
        guard handler.unacknowledgedSent.isEmpty else { return }
        handlers[name]!.period.finishedAt = now
        let session = closePeriod(name)
        let work = useful.map { $0 ? ", useful work" : ", nothing useful" } ?? ""
        let reason = "finished after \(Self.seconds(session?.seconds ?? 0)) s\(work)"
        send(name, .willSuspend)
        handlers[name]!.willSuspendSent = true
        if handler.registration.exitsOnSuspend {
            stop(name, reason: "\(reason) (exits on suspend)", signal: SIGTERM)
        } else {
            suspend(name, reason: reason)
        }
    }

    /// Why a `finished` is not true, or nil when it is.
    private func finishProblem(_ handler: Handler, useful: Bool?, through: Int64?) -> String? {
        if !handler.openTasks.isEmpty { return "\(handler.openTasks.count) background task(s) are open" }
        let unacknowledged = handler.unacknowledgedSent.count { $0 <= through ?? handler.lastSent }
        if unacknowledged > 0 { return "\(unacknowledged) event(s) it was sent are unacknowledged" }
        if useful == true && handler.period.acknowledged == 0 { return "it claims useful work and acknowledged no event" }
        return nil
    }

    /// Judges the open period (its time is over, it exited, or it said `finished`), records it
    /// in the standing, asks for it to be stored, and returns it; nil when no period was open.
    @discardableResult
    mutating func closePeriod(_ name: String) -> HandlerSession? {
        guard let handler = handlers[name], handler.period.open, let start = handler.backgroundStart else { return nil }
        let period = handler.period
        let session: HandlerSession
        if period.misreported {
            session = HandlerSession(outcome: .misreported, seconds: now.seconds(since: start), useful: period.useful)
        } else if let finishedAt = period.finishedAt {
            session = HandlerSession(outcome: .quick, seconds: finishedAt.seconds(since: start), useful: period.useful)
        } else if handler.openTasks.isEmpty && handler.unacknowledgedSent.isEmpty {
            session = HandlerSession(outcome: .quick, seconds: (period.lastWork ?? start).seconds(since: start), useful: period.useful)
        } else {
            session = HandlerSession(outcome: .slow, seconds: now.seconds(since: start), useful: period.useful)
        }
        handlers[name]!.period.open = false
        handlers[name]!.standing.record(session)
        actions.append(.recordSession(handler: name, session))
        return session
    }

    /// Seconds to one decimal, for logs and reasons.
    static func seconds(_ value: Double) -> String { String(format: "%.1f", value) }
}
