import Foundation
import Logging
import Testing
import WaymarkCore
import WaymarkHandlers
import WaymarkStore
import WaymarkTestSupport

/// The supervisor on the clock it is given (docs/semantics.md §1.2): a real process meets the end
/// of its budget when a manual clock reaches it, with no real seconds waited, and the supervisor
/// sleeps until exactly the lifecycle's deadlines.
@Suite struct HandlerSupervisorClockTests {
    static let quiet = Logger(label: "waymark.test", factory: { _ in SwiftLogNoOpLogHandler() })
    static let start = Timestamp(secondsSince1970: 1_780_000_000)

    @Test func aBudgetRunsOutOnTheInjectedClock() async throws {
        let directory = try TemporaryDirectory()
        let store = try WaymarkStore(path: directory.path("w.sqlite"), logger: Self.quiet)
        let clock = ManualWallClock(Self.start)
        let registration = HandlerRegistration(
            name: "sleeper", executable: "/bin/sleep", arguments: ["3600"], subscription: HandlerSubscription(allRegions: true),
            limits: HandlerLimits(budget: 10))
        try store.saveHandler(name: "sleeper", registrationJSON: try registration.encoded(), replace: false, at: clock.now)
        // The lifecycle's deadlines alone: the memory-pressure watch adds wakes of its own.
        var settings = HandlerSupervisor.Settings()
        settings.memoryPressureFile = nil
        let supervisor = HandlerSupervisor(
            store: store, socketPath: directory.path("handlers.sock"), settings: settings,
            queries: .init(regionState: { _, _ in "null" }, lastLocation: { _ in "null" }), clock: clock, logger: Self.quiet)
        try await supervisor.reload()
        _ = try store.enqueueHandlerEvents([.init(handler: "sleeper", time: clock.now, kind: .region, record: "{}")], at: clock.now)
        await supervisor.eventsQueued(for: "sleeper", reason: "region")
        let pid = try #require(await supervisor.status().first?.pid)
        defer { kill(pid, SIGKILL) }
        let run = Task { await supervisor.run() }
        defer { run.cancel() }

        // Asleep until `willSuspend` is due, 1 s before the end of the 10 s budget.
        #expect(await Self.eventually { clock.nextDeadline == Self.start.adding(seconds: 9) })
        #expect(HandlerProcess.state(of: pid) != "T")
        clock.advance(by: 9)
        #expect(await Self.eventually { clock.nextDeadline == Self.start.adding(seconds: 10) })
        #expect(HandlerProcess.state(of: pid) != "T")
        clock.advance(by: 1)
        // `sleep` never connects: rather than suspended (and resumed for every event, forever),
        // it is ended at the end of its background time, and that counts as a crash.
        #expect(await Self.eventually { HandlerProcess.state(of: pid) == nil })
        var status = await supervisor.status().first
        for _ in 0..<1000 where status?.state != "terminated" {
            try await Task.sleep(for: .milliseconds(10))
            status = await supervisor.status().first
        }
        #expect(status?.state == "terminated" && status?.counters?.crashes == 1, "\(String(describing: status))")
        // The crash's backoff (1 s) is the next deadline: it sleeps until exactly then.
        #expect(await Self.eventually { clock.nextDeadline == Self.start.adding(seconds: 11) })
        await supervisor.shutdown()
    }

    /// Polls `condition` for up to 10 s of real time.
    static func eventually(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<1000 {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }
}
