import ArgumentParser
import Foundation
import WaymarkAPI
import WaymarkCore
import WaymarkHandlers
import WaymarkStore

struct HandlersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "handlers",
        abstract: "Register and control handlers: programs launched for their location events (docs/handlers.md).",
        subcommands: [Add.self, List.self, Remove.self, Quit.self, Launch.self, Background.self, Notify.self, Log.self])

    /// Tells a running daemon to re-read the registrations (the default one, or the one at
    /// `--socket` even with `--db`); silent when none answers.
    static func notifyDaemon(_ store: RegionsCommand.StoreOptions) throws {
        var options = store
        if options.socket != nil { options.database = nil }
        guard let client = try options.daemon() else { return }
        _ = try RegionsCommand.call(client, "POST", "/v1/handlers/reload")
    }

    static func escaped(_ name: String) -> String {
        name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? name
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Each handler with its state and counters.")

        @Flag(help: "One JSON object per line.")
        var json = false

        @OptionGroup var store: RegionsCommand.StoreOptions

        func run() throws {
            let handlers = try store.daemon().map(Self.fromDaemon) ?? Self.fromStore(try store.open())
            for handler in handlers {
                if json {
                    print(handler.json)
                } else {
                    let pid = handler.pid.map(String.init) ?? "-"
                    let budget = String(format: "%.1f", handler.budgetSeconds)
                    // How it is suspended (cgroup frozen or process group stopped): the daemon knows.
                    let suspension = handler.suspension.map { "\tsuspension \($0)" } ?? ""
                    print("\(handler.name)\t\(handler.state)\tpid \(pid)\tqueued \(handler.eventsQueued)\tunacknowledged \(handler.eventsUnacknowledged)\tbudget \(budget) s\(suspension)\t\(handler.executable)")
                }
            }
        }

        /// `GET /v1/handlers`, decoded.
        static func fromDaemon(_ client: UnixSocketHTTPClient) throws -> [HandlerStatus] {
            struct Body: Decodable { var handlers: [HandlerStatus] }
            let body = try RegionsCommand.call(client, "GET", "/v1/handlers")
            do {
                return try JSONDecoder().decode(Body.self, from: Data(body.utf8)).handlers
            } catch {
                throw CommandError("the daemon's answer to GET /v1/handlers is not what this waymark expects: \(error)")
            }
        }

        /// With no daemon: the registrations, queues and standings in the store.
        static func fromStore(_ database: WaymarkStore) throws -> [HandlerStatus] {
            let counts = try database.handlerEventCounts()
            return try database.handlers().map { handler in
                let registration = try HandlerRegistration.decode(handler.registrationJSON)
                let standing = HandlerStanding(stored: try database.handlerSessions(handler: handler.name, limit: HandlerStanding.window))
                let limits = standing.limits(from: registration.limits)
                return HandlerStatus(
                    name: handler.name, state: handler.forceQuit ? "terminated" : "notRunning", forceQuit: handler.forceQuit,
                    executable: registration.executable, eventsQueued: counts[handler.name]?.queued ?? 0,
                    eventsUnacknowledged: counts[handler.name]?.unacknowledged ?? 0, budgetSeconds: limits.budget,
                    maximumBackgroundSeconds: limits.maximumBackgroundTime, standing: .init(standing))
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Unregister handlers (their queued events go too).")

        @Argument(help: "Handler names.")
        var names: [String]

        @OptionGroup var store: RegionsCommand.StoreOptions

        func run() throws {
            let database = try store.open()
            for name in names where try !database.removeHandler(name: name) {
                throw CommandError("no handler named '\(name)'")
            }
            try HandlersCommand.notifyDaemon(store)
        }
    }

    struct Quit: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Force-quit a handler: SIGKILL and a mark.",
            discussion: "Location handlers are still relaunched for their events unless registered with --no-relaunch; then only `waymark handlers launch` starts them again.")

        @Argument var name: String
        @OptionGroup var store: RegionsCommand.StoreOptions

        func run() throws {
            if let client = try store.daemon() {
                _ = try RegionsCommand.call(client, "POST", "/v1/handlers/\(HandlersCommand.escaped(name))/quit")
            } else if try !store.open().setForceQuit(true, handler: name) {
                throw CommandError("no handler named '\(name)'")
            }
        }
    }

    struct Launch: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Start a handler as the user would: active, with no time budget; clears a force-quit.")

        @Argument var name: String
        @OptionGroup var store: RegionsCommand.StoreOptions

        func run() throws { try HandlersCommand.tellDaemon("launch", handler: name, store) }
    }

    struct Background: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Move an active handler to the background: it gets didEnterBackground, then its time budget applies.")

        @Argument var name: String
        @OptionGroup var store: RegionsCommand.StoreOptions

        func run() throws { try HandlersCommand.tellDaemon("background", handler: name, store) }
    }

    struct Notify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Wake a handler with data, like a silent push notification (queued durably; 5 at once, then one per 10 s).")

        @Argument var name: String
        @Option(help: "The push's data: one JSON value, at most 4 KiB (default {}).") var data = "{}"
        @OptionGroup var store: RegionsCommand.StoreOptions

        func run() throws {
            guard let client = try store.daemon() else {
                throw CommandError("no daemon answers on its socket: start `waymark serve` first (handlers run under the daemon)")
            }
            print(try RegionsCommand.call(client, "POST", "/v1/handlers/\(HandlersCommand.escaped(name))/notify", body: Array(data.utf8)))
        }
    }

    /// `POST /v1/handlers/NAME/ACTION` to the running daemon: these act on live processes.
    static func tellDaemon(_ action: String, handler name: String, _ store: RegionsCommand.StoreOptions) throws {
        guard let client = try store.daemon() else {
            throw CommandError("no daemon answers on its socket: start `waymark serve` first (handlers run under the daemon)")
        }
        _ = try RegionsCommand.call(client, "POST", "/v1/handlers/\(escaped(name))/\(action)")
    }

    struct Log: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "A handler's state changes with their times and reasons (JSON Lines).")

        @Argument var name: String
        @OptionGroup var store: RegionsCommand.StoreOptions

        func run() throws {
            for entry in try store.open().handlerLog(handler: name) {
                var w = JSONObjectWriter()
                w.add("time", entry.time.rfc3339)
                w.add("state", entry.state)
                w.add("reason", entry.reason)
                w.addRaw("pid", entry.pid.map(String.init) ?? "null")
                print(w.object)
            }
        }
    }
}
