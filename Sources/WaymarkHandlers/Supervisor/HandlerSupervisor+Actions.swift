import Foundation
import WaymarkCore
import WaymarkStore

extension HandlerSupervisor {
    /// Does what the lifecycle asked; the answers to `spawn`, `readQueue` and `deliver` go
    /// back to it at once.
    func perform(_ action: HandlerLifecycle.Action) {
        switch action {
        case .spawn(let name, let reason):
            do {
                let launched = try spawn(name, reason: reason)
                processes[name] = launched
                feed(.spawned(handler: name))
                watchExit(of: launched.process, handler: name)
            } catch {
                feed(.spawnFailed(handler: name, message: "\(error)"))
            }
        case .signal(let name, let signal):
            processes[name]?.process.signalGroup(signal)
        case .kill(let name, let signal, let reason):
            logger.info("Stopping handler", metadata: ["handler": "\(name)", "reason": "\(reason)", "signal": "\(signal)"])
            processes[name]?.process.signalGroup(signal)
        case .send(let name, let message):
            connections[name]?.send(message.line(handler: name))
        case .deliver(let name, let after):
            deliver(name, after: after)
        case .readQueue(let name):
            feed(.queueRead(handler: name, wakingKind: oldestUnacknowledgedKind(name)))
        case .close(let name):
            connections.removeValue(forKey: name)?.close()
        case .forget(let name):
            processes[name] = nil
            connections.removeValue(forKey: name)?.close()
        case .logState(let name, let state, let reason):
            let pid = processes[name]?.process.pid
            logger.info("Handler \(state.rawValue)", metadata: ["handler": "\(name)", "reason": "\(reason)", "pid": "\(pid.map(String.init) ?? "-")"])
            try? store.logHandlerState(handler: name, state: state.rawValue, reason: reason, pid: pid, at: clock.now)
        case .recordSession(let name, let session):
            record(session, handler: name)
        case .persistForceQuit(let name, let value):
            _ = try? store.setForceQuit(value, handler: name)
        }
    }

    /// The kind of the oldest unacknowledged event that may wake the handler: any but
    /// `ranging`, which is only for a handler that runs anyway (ranging wakes no app on iOS).
    func oldestUnacknowledgedKind(_ name: String) -> String? {
        (try? store.unacknowledgedEvents(handler: name))?.first { $0.kind != .ranging }?.kind.rawValue
    }

    /// Ranging reports queued longer ago than this when their turn comes are dropped, not sent.
    static let rangingFreshness = 5.0

    /// Sends the queued events after id `after`, dropping stale ranging reports.
    func deliver(_ name: String, after: Int64) {
        guard let connection = connections[name] else { return }
        let events: [QueuedHandlerEvent]
        do {
            events = try store.unacknowledgedEvents(handler: name, afterID: after)
        } catch {
            logger.error("Cannot read a handler's queue", metadata: ["handler": "\(name)", "error": "\(error)"])
            return
        }
        guard let last = events.last else { return }
        let now = clock.now
        var sent: [Int64] = []
        for event in events {
            if event.kind == .ranging && now.seconds(since: event.queuedAt) > Self.rangingFreshness {
                _ = try? store.acknowledgeEvent(handler: name, id: event.id, at: now)  // stale: dropped
                continue
            }
            // Counted before it goes out: a daemon killed once the handler has it still
            // resends it with a higher attempt (docs/semantics.md §1.6).
            try? store.markDelivered(eventID: event.id)
            connection.send(HandlerReply.event(id: event.id, attempt: event.attempts + 1, reason: event.kind.rawValue, record: event.record))
            sent.append(event.id)
        }
        feed(.delivered(handler: name, sent: sent, through: last.id))
    }

    /// Stores a judged period; a slow or misreported one is logged with the time it leaves.
    func record(_ session: HandlerSession, handler name: String) {
        do {
            try store.recordHandlerSession(handler: name, StoredHandlerSession(session), at: clock.now)
        } catch {
            logger.error("Cannot record a handler's session", metadata: ["handler": "\(name)", "error": "\(error)"])
        }
        guard session.outcome != .quick, let limits = lifecycle.handlers[name]?.limits else { return }
        logger.info(
            "Handler period was \(session.outcome.rawValue): less background time from now",
            metadata: [
                "handler": "\(name)", "budget": "\(HandlerLifecycle.seconds(limits.budget))",
                "maximumBackgroundTime": "\(HandlerLifecycle.seconds(limits.maximumBackgroundTime))",
            ])
    }
}
