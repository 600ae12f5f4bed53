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
            stageDelivery(name, after: after)
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
        case .storeAcknowledgement(let name, let id):
            acknowledge(id, handler: name)
        }
    }

    /// The kind of the oldest unacknowledged event that may wake the handler: any but
    /// `ranging`, which is only for a handler that runs anyway (ranging wakes no app on iOS).
    func oldestUnacknowledgedKind(_ name: String) -> String? {
        settleAcknowledgements()
        return (try? store.unacknowledgedEvents(handler: name))?.first { $0.kind != .ranging }?.kind.rawValue
    }

    /// Ranging reports queued longer ago than this when their turn comes are dropped, not sent.
    static let rangingFreshness = 5.0

    /// Reads the queued events after id `after` to go out with the others of this round
    /// (`sendStagedDeliveries`), dropping stale ranging reports. The last request for a
    /// handler in a round wins: it reflects the lifecycle's latest state. Acknowledgements not
    /// yet committed are left out here rather than committed first, so staging never waits
    /// for the store's writer.
    func stageDelivery(_ name: String, after: Int64) {
        guard let connection = connections[name] else { return }
        if let index = stagedDeliveries.firstIndex(where: { $0.handler == name }) {
            if stagedDeliveries[index].after == after && stagedDeliveries[index].connection == connection { return }
            stagedDeliveries.remove(at: index)
        }
        let events: [QueuedHandlerEvent]
        do {
            let acknowledged = acknowledgedNotCommitted(by: name)
            events = try store.unacknowledgedEvents(handler: name, afterID: after, limit: HandlerLifecycle.deliveryWindow)
                .filter { !acknowledged.contains($0.id) }
        } catch {
            logger.error("Cannot read a handler's queue", metadata: ["handler": "\(name)", "error": "\(error)"])
            return
        }
        guard let last = events.last else { return }
        let now = clock.now
        let isStale = { (event: QueuedHandlerEvent) in event.kind == .ranging && now.seconds(since: event.queuedAt) > Self.rangingFreshness }
        for event in events where isStale(event) { acknowledge(event.id, handler: name) }  // dropped, not sent
        stagedDeliveries.append(
            StagedDelivery(
                handler: name, connection: connection, after: after, events: events.filter { !isStale($0) }, through: last.id,
                more: events.count == HandlerLifecycle.deliveryWindow))
    }

    /// Sends every staged delivery, each handler's events in one write, and tells the lifecycle
    /// of them all at once (which may stage more: a round follows). An event's first attempt
    /// was counted by the commit that queued it; a resend is counted first, with the
    /// acknowledgements waiting, in one transaction (a daemon killed once a handler has an
    /// event resends it with a higher attempt, docs/semantics.md §1.6). A round of first sends
    /// alone writes nothing, so it never waits for the store's writer.
    func sendStagedDeliveries() {
        feeding += 1
        defer { feeding -= 1 }
        while !stagedDeliveries.isEmpty {
            let round = stagedDeliveries
            stagedDeliveries = []
            let resent = round.flatMap { staged in staged.events.lazy.filter { !self.isFirstSend($0) }.map(\.id) }
            if !resent.isEmpty {
                do {
                    try store.recordDeliveryRound(acknowledging: pendingAcknowledgements, delivering: resent)
                    pendingAcknowledgements.removeAll(keepingCapacity: true)
                } catch {
                    logger.error("Cannot count deliveries: not sent now", metadata: ["error": "\(error)"])
                    return
                }
            }
            var delivered: [HandlerLifecycle.Input] = []
            for staged in round where connections[staged.handler] == staged.connection {
                staged.connection.send(lines: staged.events.map { event in
                    let attempt = isFirstSend(event) ? event.attempts : event.attempts + 1
                    return HandlerReply.event(id: event.id, attempt: attempt, reason: event.kind.rawValue, record: event.record)
                })
                if let last = staged.events.last?.id { highestSent[staged.handler] = max(highestSent[staged.handler] ?? 0, last) }
                delivered.append(.delivered(handler: staged.handler, sent: staged.events.map(\.id), through: staged.through, more: staged.more))
            }
            for action in lifecycle.handle(delivered, at: clock.now) { perform(action) }
        }
    }

    /// Whether `event` goes out for the first time: queued by this process (its first attempt
    /// counted then) and above every id this process has sent its handler, in id order.
    func isFirstSend(_ event: QueuedHandlerEvent) -> Bool {
        event.id > queuedBeforeStart && event.id > highestSent[event.handler] ?? 0
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
