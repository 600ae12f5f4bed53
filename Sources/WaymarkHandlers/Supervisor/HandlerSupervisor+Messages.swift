import Foundation

extension HandlerSupervisor {
    /// Serves one connection from the handler socket: its lines, in order, until it closes.
    public nonisolated func serve(_ connection: HandlerConnection) {
        let (reads, continuation) = AsyncStream.makeStream(of: [String].self)
        connection.readLines({ continuation.yield($0) }, ended: { continuation.finish() })
        Task {
            var handler: String?
            for await lines in reads {
                handler = await self.received(lines, on: connection, from: handler)
                if handler == nil { break }
            }
            connection.close()
            if let handler { await self.disconnected(connection, handler: handler) }
        }
    }

    /// Handles the lines of one read in order; acknowledgements in a row go to the lifecycle
    /// together. Returns the handler the connection belongs to, or nil to close it.
    func received(_ lines: [String], on connection: HandlerConnection, from handler: String?) async -> String? {
        var handler = handler
        var acknowledgements: [HandlerLifecycle.Input] = []
        for line in lines {
            let request = HandlerRequest.parse(line)
            if let name = handler, case .ack(let id) = request {
                acknowledgements.append(.acknowledged(handler: name, id: id))
                continue
            }
            if !acknowledgements.isEmpty { feed(acknowledgements) }
            acknowledgements = []
            handler = await received(request, on: connection, from: handler)
            if handler == nil { return nil }
        }
        if !acknowledgements.isEmpty, let name = handler, lifecycle.handlers[name] != nil { feed(acknowledgements) }
        return handler
    }

    /// Handles one request; returns the handler the connection belongs to, or nil to close it.
    func received(_ request: HandlerRequest, on connection: HandlerConnection, from handler: String?) async -> String? {
        guard let name = handler else {
            guard case .hello(let name, let token) = request else {
                connection.send(HandlerReply.simple("error", [("message", "the first message must be hello")]))
                return nil
            }
            return hello(name, token: token, on: connection) ? name : nil
        }
        guard lifecycle.handlers[name] != nil else { return nil }
        switch request {
        case .hello:
            connection.send(HandlerReply.simple("error", [("message", "hello was already received")]))
        case .ack(let id):
            feed(.acknowledged(handler: name, id: id))
        case .beginBackgroundTask(let taskName):
            feed(.beginBackgroundTask(handler: name, name: taskName))
        case .endBackgroundTask(let token):
            feed(.endBackgroundTask(handler: name, token: token))
        case .backgroundTimeRemaining:
            feed(.backgroundTimeRemaining(handler: name))
        case .regionState(let region, let device, let request):
            connection.send(await answer(request) { try await $0.regionState(region, device) })
        case .lastLocation(let device, let request):
            connection.send(await answer(request) { try await $0.lastLocation(device) })
        case .finished(let useful, let through, let result):
            if let result { feed(.fetchResult(handler: name, result)) }
            feed(.finished(handler: name, useful: useful, through: through))
        case .enterBackground:
            feed(.enterBackground(handler: name, byItself: true))
        case .invalid(let reason):
            connection.send(HandlerReply.simple("error", [("message", reason)]))
        }
        return name
    }

    /// The answer line to a query, or the error in its place (a failure that is not a
    /// `HandlerQueryError` is `unavailable`, with its description).
    private func answer(_ request: String?, _ query: (Queries) async throws -> String) async -> String {
        do {
            return HandlerReply.answer(request: request, try await query(queries))
        } catch let error as HandlerQueryError {
            return HandlerReply.answer(request: request, failed: error)
        } catch {
            return HandlerReply.answer(request: request, failed: HandlerQueryError(code: .unavailable, message: "cannot answer: \(error)"))
        }
    }

    /// Attaches a connection: a process launched by the daemon proves itself with its token; a
    /// handler started by hand (no process of ours) becomes active.
    private func hello(_ name: String, token: String?, on connection: HandlerConnection) -> Bool {
        guard lifecycle.handlers[name] != nil else {
            connection.send(HandlerReply.simple("error", [("message", "no handler named '\(name)' is registered")]))
            return false
        }
        if let launched = processes[name], token != launched.token {
            connection.send(HandlerReply.simple("error", [("message", "wrong or missing launch token for '\(name)'")]))
            return false
        }
        connections.updateValue(connection, forKey: name)?.close()
        feed(.connected(handler: name))
        return true
    }

    func disconnected(_ connection: HandlerConnection, handler name: String) {
        guard connections[name] == connection else { return }
        connections[name] = nil
        feed(.disconnected(handler: name))
    }
}
