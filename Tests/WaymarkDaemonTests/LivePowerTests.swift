import Logging
import Synchronization
import Testing
import WaymarkAPI
import WaymarkCore
import WaymarkHandlers
import WaymarkPipeline
import WaymarkPower
import WaymarkRegions
import WaymarkServices
import WaymarkStore
import WaymarkTestSupport

@testable import WaymarkDaemon

/// The live energy ledger and power-aware sampling in the pipeline, on a manual clock.
@Suite struct LivePowerTests {
    static let start = Timestamp(rfc3339: "2026-06-01T10:00:00Z")!
    static let quiet = Logger(label: "waymark.test", factory: { _ in SwiftLogNoOpLogHandler() })
    /// A 100 m circle; fixes are placed north of it.
    static let centre = Coordinate(latitude: 47.0, longitude: 8.0)
    static let hut = Region(identifier: "hut", shape: .circle(center: centre, radius: 100))

    /// What the pipeline told the source: watch or not, in order.
    final class Watching: Sendable {
        let calls = Mutex<[Bool]>([])
        var last: Bool? { calls.withLock { $0.last } }
    }

    /// A fix `metres` north of the hut's centre at `time`, 10 m accuracy.
    static func fix(metres: Double, at time: Timestamp) -> Fix {
        Fix(
            time: time, coordinate: Coordinate(latitude: centre.latitude + metres / 111_195, longitude: centre.longitude),
            horizontalAccuracy: 10, mode: .threeD)
    }

    /// A pipeline on gpsd monitoring the hut, over an in-memory store and a manual clock at `start`.
    struct Rig {
        let store: WaymarkStore
        let clock: ManualWallClock
        let pipeline: LivePipeline
        let watching: Watching

        init(recordFixes: Bool, power: PowerSettings = PowerSettings()) async throws {
            store = try WaymarkStore.temporary(logger: quiet)
            clock = ManualWallClock(start)
            pipeline = LivePipeline(
                store: store, writer: StoreWriter(store: store, logger: quiet), regions: RegionMonitors([hut]), sourceKind: .gpsd, sourceDescription: "gpsd:test", feed: LiveFeed(),
                recordFixes: recordFixes, power: power, clock: clock, logger: quiet)
            let watching = Watching()
            self.watching = watching
            await pipeline.onWatchingChanged { on in watching.calls.withLock { $0.append(on) } }
        }
    }

    static func seconds(_ buckets: [EnergyBucket], radio: String = "gnss", handler: String? = nil) -> [String: Double] {
        var byState: [String: Double] = [:]
        for bucket in buckets where bucket.radio == radio && (handler == nil || bucket.handler == handler) {
            byState[bucket.state, default: 0] += bucket.seconds
        }
        return byState
    }

    @Test func gnssStatesFollowWatchingFixesAndGapsOnTheDaemonsClock() async throws {
        let rig = try await Rig(recordFixes: true)
        let (store, clock, pipeline) = (rig.store, rig.clock, rig.pipeline)
        clock.advance(by: 5)  // not connected yet: off
        await pipeline.handle(.connected("gpsd"))
        clock.advance(by: 30)
        await pipeline.handle(.fix(Self.fix(metres: 5000, at: clock.now)))
        clock.advance(by: 600)
        await pipeline.handle(.gap(time: clock.now, reason: "no fix (mode 1)"))
        clock.advance(by: 10)
        await pipeline.handle(.fix(Self.fix(metres: 5000, at: clock.now)))
        clock.advance(by: 20)
        await pipeline.handle(.disconnected("gpsd went away"))
        clock.advance(by: 100)
        await pipeline.flushEnergy()
        let stored = try store.energy()
        #expect(Self.seconds(stored) == ["off": 105, "acquiring": 40, "tracking": 620])
        #expect(stored.allSatisfy { $0.profile == "ublox-m8-usb" && $0.handler == EnergyLedger.unattributed })
        // 40 s × 25 mA × 3 V + 620 s × 22 mA × 3 V
        #expect(abs(stored.reduce(0) { $0 + $1.joules } - (3.0 + 40.92)) < 1e-9)
        // A second flush adds only what came since.
        clock.advance(by: 50)
        await pipeline.flushEnergy()
        #expect(Self.seconds(try store.energy()) == ["off": 155, "acquiring": 40, "tracking": 620])
    }

    @Test func theLedgerIsStoredJustAfterEachHourOfTheDaemonsClock() async throws {
        let rig = try await Rig(recordFixes: true)
        rig.clock.advance(by: 1800)  // 10:30
        await rig.pipeline.handle(.connected("gpsd"))
        let service = Task { try await EnergyFlushService(pipeline: rig.pipeline, clock: rig.clock).run() }
        defer { service.cancel() }
        #expect(await Self.eventually { rig.clock.nextDeadline == Timestamp(rfc3339: "2026-06-01T11:00:00.001Z") })
        #expect(try rig.store.energy().isEmpty)
        rig.clock.advance(by: 1800.001)
        #expect(await Self.eventually { (try? rig.store.energy().isEmpty) == false })
        // The closed hour: 30 min off, then 30 min acquiring (no fix came).
        let hour = try rig.store.energy().filter { $0.hour == Self.start }
        #expect(Self.seconds(hour) == ["off": 1800, "acquiring": 1800])
        #expect(await Self.eventually { rig.clock.nextDeadline == Timestamp(rfc3339: "2026-06-01T12:00:00.001Z") })
    }

    @Test func radioTimeIsChargedToTheHandlersThatNeedIt() async throws {
        let rig = try await Rig(recordFixes: false)
        let (store, clock, pipeline) = (rig.store, rig.clock, rig.pipeline)
        let supervisor = HandlerSupervisor(
            store: store, socketPath: "/nonexistent/handler.sock",
            queries: .init(regionState: { _, _ in "null" }, lastLocation: { _ in "null" }), clock: clock, logger: Self.quiet)
        await pipeline.routeHandlers(
            [
                HandlerRegistration(name: "hiker", executable: "/bin/true", subscription: HandlerSubscription(allRegions: true)),
                HandlerRegistration(
                    name: "walker", executable: "/bin/true",
                    subscription: HandlerSubscription(services: ServiceSubscriptionSettings(significantChange: true))),
                HandlerRegistration(name: "doorbell", executable: "/bin/true", subscription: HandlerSubscription(allBeacons: true)),
            ], supervisor: supervisor)
        await pipeline.handle(.connected("gpsd"))
        await pipeline.beaconSourceChanged(.init(kind: .bluetooth, description: "bluetooth:hci0", scanning: true, scanInterval: 0.1, scanWindow: 0.025))
        clock.advance(by: 100)
        await pipeline.flushEnergy()
        let stored = try store.energy()
        // GNSS split evenly between the two handlers that need it; the daemon needs nothing itself.
        #expect(Self.seconds(stored, handler: "hiker") == ["acquiring": 50])
        #expect(Self.seconds(stored, handler: "walker") == ["acquiring": 50])
        #expect(Self.seconds(stored, handler: EnergyLedger.unattributed).isEmpty)
        // Bluetooth to the beacon handler, priced at a quarter duty cycle: 100 s × 6 mA × 3.3 V ÷ 4.
        let bluetooth = stored.filter { $0.radio == "bluetooth" }
        #expect(bluetooth.map(\.handler) == ["doorbell"] && bluetooth.map(\.profile) == ["ble-adapter"])
        #expect(abs((bluetooth.first?.joules ?? 0) - 0.495) < 1e-9)
        #expect(bluetooth.first?.seconds == 100)
    }

    static let aware: PowerSettings = {
        var settings = PowerSettings()
        settings.aware = true
        settings.activity = .fitness
        return settings
    }()

    @Test func farFromEveryBoundaryTheGNSSSleepsAndWakesAHotStartEarly() async throws {
        let rig = try await Rig(recordFixes: false, power: Self.aware)
        let (store, clock, pipeline, watching) = (rig.store, rig.clock, rig.pipeline, rig.watching)
        await pipeline.handle(.connected("gpsd"))
        #expect(watching.last == true)
        clock.advance(by: 2)
        // 2 km from the centre: the boundary is 1900 m away; (1900 − 10) ÷ 15 m/s = 126 s, less a 1 s hot start.
        await pipeline.handle(.fix(Self.fix(metres: 2000, at: Timestamp(rfc3339: "2009-01-01T00:00:00Z")!)))
        #expect(watching.last == false)
        let status = await pipeline.powerStatus
        #expect(status.sampler == .sleeping)
        let until = try #require(status.sleepingUntil)
        #expect(abs(until.seconds(since: clock.now) - 125) < 0.5)
        // The sampler's sleeper is a task of its own: it reaches the clock soon, not at once
        // (on a loaded machine, after this line).
        #expect(await Self.eventually { clock.sleeperCount == 1 })
        clock.advance(by: 100)
        #expect(watching.last == false)
        clock.advance(to: until)
        let woke = await Self.eventually { await pipeline.powerStatus.sampler == .tracking }
        #expect(woke && watching.last == true)
        // Status counts what is not stored yet: 2 s acquiring, the rest off (0 W).
        let acquiring = PowerProfile.ubloxM8USB.states["acquiring"]!.power
        let live = try #require(await pipeline.powerStatus.gnssJoules)
        #expect(abs(live - 2 * acquiring) < 1e-9)
        await pipeline.flushEnergy()
        #expect(await pipeline.powerStatus.gnssJoules == live)
        // Acquiring until the fix, off from the fix until the wake-up; tracking lasted no time.
        let seconds = Self.seconds(try store.energy())
        #expect(Set(seconds.keys) == ["acquiring", "off"] && seconds["acquiring"] == 2)
        #expect(abs((seconds["off"] ?? 0) - until.seconds(since: Self.start.adding(seconds: 2))) < 1e-6, "\(seconds)")
    }

    @Test func nearABoundaryTheGNSSKeepsTracking() async throws {
        let rig = try await Rig(recordFixes: false, power: Self.aware)
        let (clock, pipeline, watching) = (rig.clock, rig.pipeline, rig.watching)
        await pipeline.handle(.connected("gpsd"))
        // 130 m from the centre: 30 m to the boundary, (30 − 10) ÷ 15 s is less than the hot start
        // and the break-even sleep (1 s + 1.14 s).
        await pipeline.handle(.fix(Self.fix(metres: 130, at: clock.now)))
        #expect(watching.last == true)
        #expect(await pipeline.powerStatus.sampler == .tracking)
        #expect(clock.sleeperCount == 0)
    }

    @Test func aLiveStreamClientWakesTheGNSSAtOnce() async throws {
        let rig = try await Rig(recordFixes: false, power: Self.aware)
        let (clock, pipeline, watching) = (rig.clock, rig.pipeline, rig.watching)
        await pipeline.handle(.connected("gpsd"))
        await pipeline.handle(.fix(Self.fix(metres: 2000, at: clock.now)))
        #expect(watching.last == false)
        await pipeline.liveSubscribersChanged(1)
        #expect(watching.last == true)
        #expect(await pipeline.powerStatus.sampler == .continuous)
        #expect(await pipeline.powerStatus.sleepingUntil == nil)
        #expect(await Self.eventually { clock.sleeperCount == 0 })
        // The cancelled sleep's deadline passing changes nothing.
        clock.advance(by: 3600)
        #expect(watching.last == true)
    }

    @Test func withoutPowerAwarenessTheGNSSNeverSleeps() async throws {
        let rig = try await Rig(recordFixes: false)
        let (clock, pipeline, watching) = (rig.clock, rig.pipeline, rig.watching)
        await pipeline.handle(.connected("gpsd"))
        await pipeline.handle(.fix(Self.fix(metres: 2000, at: clock.now)))
        #expect(watching.last == true)
        #expect(await pipeline.powerStatus.sampler == .continuous)
    }

    /// Polls `condition` (the sampler's wake-up runs on its own task) for up to two seconds.
    static func eventually(_ condition: () async -> Bool) async -> Bool {
        for _ in 0..<200 {
            if await condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }
}
