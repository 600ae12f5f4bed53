import Foundation
import WaymarkCore
import WaymarkStore

extension HandlerSupervisor {
    /// Does what the lifecycle asked; the answers to `spawn`, `readQueue` and `deliver` go
    /// back to it at once.
    func perform(_ action: HandlerLifecycle.Action) {
        switch action {
        case .spawn(let name, let reason):
            rotateLog(of: name)
            do {
                let launched = try spawn(name, reason: reason)
                processes[name] = launched
                recordLaunch(of: name, launched.process)
                feed(.spawned(handler: name))
                watchExit(of: launched.process, handler: name)
            } catch {
                feed(.spawnFailed(handler: name, message: "\(error)"))
            }
        case .signal(let name, let signal):
            suspendOrResume(name, signal)
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
        case .queueFetch(let name):
            queueFetch(name)
        }
    }

    /// The kind of the oldest unacknowledged event that may wake the handler as it stands
    /// (`HandlerLifecycle.mayWake`: not `ranging`, which wakes no app on iOS; not a standard update
    /// for a when-in-use handler; after a force-quit only a location event; docs/semantics.md §1.5).
    func oldestUnacknowledgedKind(_ name: String) -> String? {
        commitAcknowledgements()
        return (try? store.unacknowledgedEvents(handler: name))?
            .first { lifecycle.mayWake(name, for: $0.kind.rawValue) }?.kind.rawValue
    }

    /// Standard updates (locations, pauses, resumptions) for a when-in-use handler that is not
    /// active: dropped when their turn comes (docs/semantics.md §1.5, "when in use means in use").
    func isWithheldUpdate(_ event: QueuedHandlerEvent, handler name: String) -> Bool {
        lifecycle.withholds(name, event.kind)
    }

    /// Ranging reports queued longer ago than this when their turn comes are dropped, not sent.
    static let rangingFreshness = 5.0

    /// Reads the queued events after id `after` to go out with the others of this round
    /// (`sendStagedDeliveries`), dropping stale ranging reports. The last request for a
    /// handler in a round wins: it reflects the lifecycle's latest state.
    func stageDelivery(_ name: String, after: Int64) {
        guard let connection = connections[name] else { return }
        if let index = stagedDeliveries.firstIndex(where: { $0.handler == name }) {
            if stagedDeliveries[index].after == after && stagedDeliveries[index].connection == connection { return }
            stagedDeliveries.remove(at: index)
        }
        commitAcknowledgements()
        let events: [QueuedHandlerEvent]
        do {
            events = try store.unacknowledgedEvents(handler: name, afterID: after, limit: HandlerLifecycle.deliveryWindow)
        } catch {
            logger.error("Cannot read a handler's queue", metadata: ["handler": "\(name)", "error": "\(error)"])
            return
        }
        guard let last = events.last else { return }
        let now = clock.now
        let isStale = { (event: QueuedHandlerEvent) in
            (event.kind == .ranging && now.seconds(since: event.queuedAt) > Self.rangingFreshness) || self.isWithheldUpdate(event, handler: name)
        }
        for event in events where isStale(event) { acknowledge(event.id, handler: name) }  // dropped, not sent
        stagedDeliveries.append(
            StagedDelivery(
                handler: name, connection: connection, after: after, events: events.filter { !isStale($0) }, through: last.id,
                more: events.count == HandlerLifecycle.deliveryWindow))
    }

    /// Sends every staged delivery: their attempts are counted in one transaction first (a
    /// daemon killed once a handler has an event still resends it with a higher attempt,
    /// docs/semantics.md §1.6), then each handler's events go out in one write, and the
    /// lifecycle hears of them all at once (which may stage more: a round follows).
    func sendStagedDeliveries() {
        feeding += 1
        defer { feeding -= 1 }
        while !stagedDeliveries.isEmpty {
            let round = stagedDeliveries
            stagedDeliveries = []
            do {
                try store.markDelivered(eventIDs: round.flatMap { $0.events.map(\.id) })
            } catch {
                logger.error("Cannot count deliveries: not sent now", metadata: ["error": "\(error)"])
                return
            }
            var delivered: [HandlerLifecycle.Input] = []
            for staged in round where connections[staged.handler] == staged.connection {
                staged.connection.send(lines: staged.events.map { HandlerReply.event(id: $0.id, attempt: $0.attempts + 1, reason: $0.kind.rawValue, device: $0.device, record: $0.record) })
                delivered.append(.delivered(handler: staged.handler, sent: staged.events.map(\.id), through: staged.through, more: staged.more))
            }
            for action in lifecycle.handle(delivered, at: clock.now) { perform(action) }
        }
    }

    /// Queues an acknowledgement for the next group commit, which runs once the jobs already
    /// waiting for the supervisor (more acknowledgements, likely) have run.
    func acknowledge(_ id: Int64, handler name: String) {
        pendingAcknowledgements.append(HandlerAcknowledgement(handler: name, id: id, time: clock.now))
        guard !acknowledgementCommitScheduled else { return }
        acknowledgementCommitScheduled = true
        Task { self.commitAcknowledgements() }
    }

    /// Commits the queued acknowledgements in one transaction.
    func commitAcknowledgements() {
        acknowledgementCommitScheduled = false
        guard !pendingAcknowledgements.isEmpty else { return }
        do {
            try store.acknowledgeEvents(pendingAcknowledgements)
        } catch {
            // Not lost for good: those events stay unacknowledged and are sent again.
            logger.error("Cannot record acknowledgements", metadata: ["count": "\(pendingAcknowledgements.count)", "error": "\(error)"])
        }
        pendingAcknowledgements.removeAll(keepingCapacity: true)
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
