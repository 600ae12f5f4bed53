import Foundation

extension HandlerSupervisor {
    /// Serves one connection from the handler socket: its lines, in order, until it closes.
    public nonisolated func serve(_ connection: HandlerConnection) {
        let (lines, continuation) = AsyncStream.makeStream(of: String.self)
        connection.readLines({ continuation.yield($0) }, ended: { continuation.finish() })
        Task {
            var handler: String?
            for await line in lines {
                handler = await self.received(line, on: connection, from: handler)
                if handler == nil { break }
            }
            connection.close()
            if let handler { await self.disconnected(connection, handler: handler) }
        }
    }

    /// Handles one line; returns the handler the connection belongs to, or nil to close it.
    func received(_ line: String, on connection: HandlerConnection, from handler: String?) async -> String? {
        let request = HandlerRequest.parse(line)
        guard let name = handler else {
            guard case .hello(let name, let token) = request else {
                connection.send(HandlerReply.simple("error", [("message", "the first message must be hello")]))
                return nil
            }
            return hello(name, token: token, on: connection) ? name : nil
        }
        guard runtimes[name] != nil else { return nil }
        switch request {
        case .hello:
            connection.send(HandlerReply.simple("error", [("message", "hello was already received")]))
        case .ack(let id):
            if (try? store.acknowledgeEvent(handler: name, id: id, at: .now)) == true {
                runtimes[name]!.counters.acknowledged += 1
                runtimes[name]!.crashes = 0
                noteWork(name, acknowledged: true)
            }
        case .beginBackgroundTask(let taskName):
            runtimes[name]!.nextTaskNumber += 1
            let token = "\(name)-task-\(runtimes[name]!.nextTaskNumber)"
            runtimes[name]!.openTasks[token] = (taskName, false)
            connection.send(HandlerReply.remaining("backgroundTask", token: token, name: taskName, seconds: remaining(name)))
        case .endBackgroundTask(let token):
            if runtimes[name]!.openTasks.removeValue(forKey: token) != nil { noteWork(name, acknowledged: false) }
            connection.send(HandlerReply.remaining("backgroundTaskEnded", token: token, name: nil, seconds: remaining(name)))
        case .backgroundTimeRemaining:
            connection.send(HandlerReply.remaining("backgroundTimeRemaining", token: nil, name: nil, seconds: remaining(name)))
        case .regionState(let region, let request):
            connection.send(HandlerReply.answer(request: request, await queries.regionState(region)))
        case .lastLocation(let request):
            connection.send(HandlerReply.answer(request: request, await queries.lastLocation()))
        case .finished(let useful, let through):
            finished(name, useful: useful, through: through)
        case .invalid(let reason):
            connection.send(HandlerReply.simple("error", [("message", reason)]))
        }
        return name
    }

    /// Seconds of background time left; nil while active (unbounded).
    func remaining(_ name: String) -> Double? {
        guard let deadline = runtimes[name]?.deadline else { return nil }
        return max((deadline - clock.now).inSeconds, 0)
    }

    /// Attaches a connection: a process launched by the daemon proves itself with its token; a
    /// handler started by hand (no process of ours) becomes active.
    private func hello(_ name: String, token: String?, on connection: HandlerConnection) -> Bool {
        guard let runtime = runtimes[name] else {
            connection.send(HandlerReply.simple("error", [("message", "no handler named '\(name)' is registered")]))
            return false
        }
        if runtime.process != nil {
            guard let token, token == runtime.launchToken else {
                connection.send(HandlerReply.simple("error", [("message", "wrong or missing launch token for '\(name)'")]))
                return false
            }
        } else {
            runtimes[name]!.launchReason = "user"
            runtimes[name]!.forceQuit = false
            _ = try? store.setForceQuit(false, handler: name)
            transition(name, to: .active, reason: "connected by the user")
        }
        runtimes[name]!.connection?.close()
        runtimes[name]!.connection = connection
        runtimes[name]!.lastSent = 0
        connection.send(HandlerReply.welcome(
            handler: name, launchReason: runtimes[name]!.launchReason, state: runtimes[name]!.state.rawValue,
            remaining: remaining(name)))
        sendPending(name)
        return true
    }

    func disconnected(_ connection: HandlerConnection, handler name: String) {
        guard runtimes[name]?.connection == connection else { return }
        runtimes[name]!.connection = nil
        if runtimes[name]!.process == nil && runtimes[name]!.state == .active {
            transition(name, to: .notRunning, reason: "disconnected")
        }
    }
}
