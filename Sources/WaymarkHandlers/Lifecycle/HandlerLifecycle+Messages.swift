import WaymarkCore

/// The handler's connection and its messages (docs/handlers.md).
extension HandlerLifecycle {
    /// A launched process proved itself (the shell checked its token), or a handler started by
    /// hand, with no process of ours, becomes active. Either gets `welcome` and its events.
    mutating func connected(_ name: String) {
        guard let handler = handlers[name] else { return }
        if !handler.running {
            handlers[name]!.launchReason = "user"
            handlers[name]!.forceQuit = false
            actions.append(.persistForceQuit(handler: name, false))
            transition(name, to: .active, reason: "connected by the user")
        }
        handlers[name]!.connected = true
        handlers[name]!.helloSinceLaunch = true
        handlers[name]!.lastSent = 0
        handlers[name]!.unacknowledgedSent = []
        let current = handlers[name]!
        send(name, .welcome(launchReason: current.launchReason, state: current.state, remaining: remaining(name)))
        deliver(name)
    }

    mutating func disconnected(_ name: String) {
        guard let handler = handlers[name], handler.connected else { return }
        handlers[name]!.connected = false
        if !handler.running && handler.state == .active { transition(name, to: .notRunning, reason: "disconnected") }
    }

    /// Events in flight to one handler at most: a delivery reads this many from the store, and
    /// the next is read once half of them are acknowledged. A backlog (a handler that was
    /// suspended for an hour) neither sits in the daemon's memory nor floods the socket.
    public static let deliveryWindow = 256

    /// Asks the shell to send what this connection has not been sent.
    mutating func deliver(_ name: String) {
        guard let handler = handlers[name], handler.connected else { return }
        handlers[name]!.moreQueued = false
        actions.append(.deliver(handler: name, after: handler.lastSent))
    }

    mutating func delivered(_ name: String, sent: [Int64], through: Int64, more: Bool) {
        guard handlers[name] != nil else { return }
        handlers[name]!.lastSent = max(handlers[name]!.lastSent, through)
        handlers[name]!.unacknowledgedSent.formUnion(sent)
        handlers[name]!.counters.delivered += sent.count
        handlers[name]!.moreQueued = more
        deliverNextWindowIfRoom(name)  // a window of stale ranging reports only: nothing to wait for
    }

    /// Reads the next window once events wait in the store and at most half a window is in flight.
    private mutating func deliverNextWindowIfRoom(_ name: String) {
        guard let handler = handlers[name], handler.moreQueued, handler.unacknowledgedSent.count <= Self.deliveryWindow / 2 else { return }
        deliver(name)
    }

    /// An acknowledgement is work done for the period, and ends a crash loop (docs/semantics.md
    /// §1.5). Only an event sent on this connection and not yet acknowledged counts; any other
    /// id (a repeat, an event of an earlier connection, one never sent) changes nothing.
    mutating func acknowledged(_ name: String, id: Int64) {
        guard handlers[name]?.unacknowledgedSent.remove(id) != nil else { return }
        handlers[name]!.counters.acknowledged += 1
        handlers[name]!.crashes = 0
        noteWork(name, acknowledged: true)
        actions.append(.storeAcknowledgement(handler: name, id: id))
        deliverNextWindowIfRoom(name)
    }

    /// A unique token; while it is open the deadline is the cap on background time (docs/semantics.md §1.2).
    mutating func beginBackgroundTask(_ name: String, taskName: String) {
        guard handlers[name] != nil else { return }
        handlers[name]!.nextTaskNumber += 1
        let token = "\(name)-task-\(handlers[name]!.nextTaskNumber)"
        handlers[name]!.openTasks.append(BackgroundTask(token: token, name: taskName))
        send(name, .backgroundTask(token: token, name: taskName, remaining: remaining(name)))
    }

    mutating func endBackgroundTask(_ name: String, token: String) {
        guard let handler = handlers[name] else { return }
        if let index = handler.openTasks.firstIndex(where: { $0.token == token }) {
            handlers[name]!.openTasks.remove(at: index)
            noteWork(name, acknowledged: false)
        }
        send(name, .backgroundTaskEnded(token: token, remaining: remaining(name)))
    }
}
