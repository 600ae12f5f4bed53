import Foundation
import Logging
import Testing
import WaymarkCore
import WaymarkHandlers
import WaymarkStore
import WaymarkTestSupport

/// Suspension on the injected clock with a real cgroup (docs/handlers.md, "Limits"): when the
/// manual clock reaches the end of the budget, the handler's cgroup is frozen — a child that left
/// its process group with `setsid` stops too — and the next event thaws it.
@Suite struct HandlerSupervisorFreezeTests {
    static let quiet = Logger(label: "waymark.test", factory: { _ in SwiftLogNoOpLogHandler() })
    static let start = Timestamp(secondsSince1970: 1_780_000_000)
    /// Root with a unified hierarchy beside v1 ones, as on this project's machines.
    static let canFreeze = getuid() == 0 && FileManager.default.fileExists(atPath: "/sys/fs/cgroup/unified/cgroup.procs")

    @Test(.enabled(if: canFreeze)) func theBudgetsEndFreezesTheHandlersCgroupAndAnEventThawsIt() async throws {
        let directory = try TemporaryDirectory()
        let store = try WaymarkStore(path: directory.path("w.sqlite"), logger: Self.quiet)
        let clock = ManualWallClock(Self.start)
        let script = try SetsidTicker.write(in: directory)
        let (ticks, out) = (directory.path("ticks"), directory.path("out.jsonl"))
        let logger = ProjectPaths.repositoryRoot.appendingPathComponent("examples/handlers/event_logger.py").path
        let registration = HandlerRegistration(
            name: "ticker", executable: script, arguments: [ticks, logger, out], subscription: HandlerSubscription(allRegions: true),
            limits: HandlerLimits(budget: 10))
        try store.saveHandler(name: "ticker", registrationJSON: try registration.encoded(), replace: false, at: clock.now)
        var settings = HandlerSupervisor.Settings()
        settings.memoryPressureFile = nil
        settings.cgroups = HandlerCgroups.prepare(instance: directory.path("w.sqlite"), logger: Self.quiet)
        let cgroups = try #require(settings.cgroups)
        #expect(cgroups.freezes)
        let server = try await HandlerSocketServer.bind(base: directory.path("sockets"), logger: Self.quiet)
        let supervisor = HandlerSupervisor(
            store: store, socketPath: server.path, settings: settings,
            queries: .init(regionState: { _, _ in "null" }, lastLocation: { _ in "null" }), clock: clock, logger: Self.quiet)
        server.start { connection in supervisor.serve(connection) }
        defer { server.stop() }
        try await supervisor.reload()
        let run = Task { await supervisor.run() }
        defer { run.cancel() }

        func event(_ at: Timestamp) async throws {
            _ = try store.enqueueHandlerEvents([.init(handler: "ticker", time: at, kind: .region, record: "{}")], at: at)
            await supervisor.eventsQueued(for: "ticker", reason: "region")
        }
        try await event(clock.now)
        #expect(await Self.eventually { SetsidTicker.lines(out) >= 1 && SetsidTicker.lines(ticks) >= 3 }, "the handler or its child never ran")
        #expect(await supervisor.status().first?.suspension == "cgroup")

        // The budget ends on the manual clock: frozen, child and all.
        clock.advance(by: 10)
        #expect(await Self.eventually { cgroups.freezerPath(of: "ticker").map(Self.isFrozen) == true })
        #expect(await supervisor.status().first?.state == "suspended")
        try await Task.sleep(for: .milliseconds(200))
        let frozen = SetsidTicker.lines(ticks)
        try await Task.sleep(for: .milliseconds(500))
        #expect(SetsidTicker.lines(ticks) == frozen, "the setsid child ran on while the handler was suspended")

        // The next event thaws it.
        try await event(clock.now)
        #expect(await Self.eventually { SetsidTicker.lines(ticks) > frozen + 2 }, "the child stayed frozen")
        #expect(cgroups.freezerPath(of: "ticker").map(Self.isFrozen) == false)
        await supervisor.shutdown()
        await supervisor.finishShutdown()
    }

    static func isFrozen(_ folder: String) -> Bool {
        ((try? String(contentsOfFile: folder + "/cgroup.events", encoding: .utf8)) ?? "").split(separator: "\n").contains("frozen 1")
    }

    /// Polls `condition` for up to 10 s of real time.
    static func eventually(_ condition: () async -> Bool) async -> Bool {
        for _ in 0..<1000 {
            if await condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return await condition()
    }
}
