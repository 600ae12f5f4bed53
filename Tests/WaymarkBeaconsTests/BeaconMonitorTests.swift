import Testing
import WaymarkBeacons
import WaymarkCore
import WaymarkRegions

/// The beacon monitor's rules (docs/semantics.md §3): entry at the first matching advertisement, exit
/// after 30 s without one, wildcards, overlapping regions, restored state.
@Suite struct BeaconMonitorTests {
    static func transitions(_ update: BeaconUpdate) -> [String] {
        update.transitions.map { "\($0.kind.rawValue) \($0.identifier) \($0.time.seconds(since: at(0)))" }
    }

    /// Runs advertisements, then lets time pass to `until`; the transitions in order.
    static func run(_ monitor: inout BeaconMonitor, _ advertisements: [BeaconAdvertisement], until: Double? = nil) -> [String] {
        var result: [String] = []
        for advertisement in advertisements { result += transitions(monitor.process(advertisement)) }
        if let until { result += transitions(monitor.advance(to: at(until))) }
        return result
    }

    @Test func entryAtTheFirstMatchingAdvertisementAndExitThirtySecondsAfterTheLast() {
        var monitor = BeaconMonitor(regions: [beaconRegion("post", major: 1, minor: 1)])
        let seen = [0.0, 5, 10, 12].map { advertisement(at: $0) }
        #expect(Self.run(&monitor, seen) == ["enter post 0.0"])
        #expect(monitor.state(ofRegionAt: 0) == .inside(since: at(0)))
        #expect(Self.run(&monitor, [], until: 42) == [])  // exactly 30 s after the last: not yet
        #expect(Self.run(&monitor, [], until: 42.001) == ["exit post 42.0"])
        #expect(monitor.state(ofRegionAt: 0) == .outside(since: at(42)))
        #expect(monitor.lastSeen(ofRegionAt: 0) == at(12))
        #expect(Self.run(&monitor, [advertisement(at: 100)]) == ["enter post 100.0"])
    }

    @Test("a gap of up to the timeout keeps the region inside", arguments: [29.0, 29.999, 30.0])
    func shortGapsDoNotExit(gap: Double) {
        var monitor = BeaconMonitor(regions: [beaconRegion("post")])
        #expect(Self.run(&monitor, [advertisement(at: 0), advertisement(at: gap)]) == ["enter post 0.0"])
    }

    @Test("a gap longer than the timeout exits at the last sighting plus the timeout, then re-enters", arguments: [30.5, 31.0, 300.0])
    func longGapsExit(gap: Double) {
        var monitor = BeaconMonitor(regions: [beaconRegion("post")])
        #expect(
            Self.run(&monitor, [advertisement(at: 0), advertisement(at: gap)])
                == ["enter post 0.0", "exit post 30.0", "enter post \(gap)"])
    }

    @Test func otherBeaconsDoNotKeepARegionAlive() {
        var monitor = BeaconMonitor(regions: [beaconRegion("post", major: 1)])
        let noise = stride(from: 1.0, through: 60, by: 1).map { advertisement(major: 2, at: $0) }
            + stride(from: 1.0, through: 60, by: 1).map { advertisement(bikeUUID, major: 1, at: $0) }
        #expect(Self.run(&monitor, [advertisement(at: 0)] + noise.sorted { $0.time < $1.time }) == ["enter post 0.0", "exit post 30.0"])
    }

    @Test func wildcardsMatchAnyMajorAndMinor() {
        let regions = [
            beaconRegion("trail"),  // any major, any minor
            beaconRegion("trail-north", major: 7),  // major 7, any minor
            beaconRegion("post-3", minor: 3),  // any major, minor 3
            beaconRegion("post-7-3", major: 7, minor: 3),
        ]
        var monitor = BeaconMonitor(regions: regions)
        #expect(Self.run(&monitor, [advertisement(major: 1, minor: 1, at: 0)]) == ["enter trail 0.0"])
        #expect(Self.run(&monitor, [advertisement(major: 7, minor: 9, at: 1)]) == ["enter trail-north 1.0"])
        #expect(Self.run(&monitor, [advertisement(major: 7, minor: 3, at: 2)]) == ["enter post-3 2.0", "enter post-7-3 2.0"])
        #expect(Self.run(&monitor, [advertisement(bikeUUID, major: 7, minor: 3, at: 3)]) == [])
    }

    @Test func overlappingRegionsEnterTogetherAndExitEachOnItsOwnTimeout() {
        let regions = [
            beaconRegion("hut"), beaconRegion("hut-door", major: 1, minor: 2),
            beaconRegion("hut-quick", major: 1, options: RegionOptions(exitTimeout: 10)),
        ]
        var monitor = BeaconMonitor(regions: regions)
        let events = Self.run(
            &monitor,
            [advertisement(major: 1, minor: 2, at: 0), advertisement(major: 1, minor: 5, at: 20), advertisement(major: 9, minor: 9, at: 45)],
            until: 100)
        #expect(
            events == [
                "enter hut 0.0", "enter hut-door 0.0", "enter hut-quick 0.0",
                "exit hut-quick 10.0", "enter hut-quick 20.0", "exit hut-door 30.0", "exit hut-quick 30.0", "exit hut 75.0",
            ])
    }

    @Test func registrationGivesNoExitAndTheStateBecomesOutsideAfterTheTimeout() {
        var monitor = BeaconMonitor(regions: [beaconRegion("post"), beaconRegion("elsewhere", bikeUUID)])
        #expect(monitor.state(ofRegionAt: 0) == .unknown)
        var update = monitor.process(advertisement(at: 0))
        #expect(Self.transitions(update) == ["enter post 0.0"])
        update = monitor.advance(to: at(30.5))
        #expect(Self.transitions(update) == ["exit post 30.0"])  // seen, then lost
        #expect(update.establishedOutside == [1])  // never seen: outside, no event
        #expect(monitor.state(ofRegionAt: 1) == .outside(since: at(30)))
    }

    @Test func notificationFlagsSilenceTransitionsButNotTheState() {
        var monitor = BeaconMonitor(regions: [beaconRegion("quiet", options: RegionOptions(notifyOnEntry: false))])
        let update = monitor.process(advertisement(at: 0))
        #expect(update.transitions.map(\.notifies) == [false])
        #expect(monitor.state(ofRegionAt: 0) == .inside(since: at(0)))
        #expect(monitor.advance(to: at(31)).transitions.map(\.notifies) == [true])
    }

    @Test func geographicRegionsAreLeftOut() {
        let circle = Region(identifier: "park", shape: .circle(center: Coordinate(latitude: 47, longitude: 8), radius: 100))
        let monitor = BeaconMonitor(regions: [circle, beaconRegion("post")])
        #expect(monitor.regions.map(\.identifier) == ["post"])
    }

    @Test func aRestoredInsideRegionExitsFromItsSavedLastSightingUnlessSeenAgain() {
        let regions = [beaconRegion("post", major: 1), beaconRegion("gate", major: 2)]
        var first = BeaconMonitor(regions: regions)
        _ = first.process(advertisement(at: 0))
        _ = first.process(advertisement(major: 2, at: 10))
        let saved = (0..<2).compactMap { first.savedState(ofRegionAt: $0) }
        #expect(saved.map(\.lastSeen) == [at(0), at(10)])

        // The daemon restarts 100 s later: the post's beacon was heard again, the gate's not.
        var second = BeaconMonitor(regions: regions)
        second.restore(saved)
        #expect(second.state(ofRegionAt: 1) == .inside(since: at(10)))
        #expect(Self.run(&second, [advertisement(at: 100)]) == ["exit post 30.0", "exit gate 40.0", "enter post 100.0"])
    }

    @Test func advertisementsOutOfOrderCountAtTheLatestTime() {
        var monitor = BeaconMonitor(regions: [beaconRegion("post", major: 1), beaconRegion("gate", major: 2)])
        _ = monitor.process(advertisement(major: 1, at: 50))
        let late = monitor.process(advertisement(major: 2, at: 10))
        #expect(Self.transitions(late) == ["enter gate 50.0"])
    }
}
