import Testing
import WaymarkCore
import WaymarkPipeline
import WaymarkRegions
import WaymarkServices

@Suite struct DevicePipelineTests {
    static let services = ServiceSubscription(
        significantChange: SignificantChangeThresholds(), visits: VisitThresholds(), activity: .fitness)

    @Test func theSampleRideGivesItsDocumentedTransitions() throws {
        let ride = try lakesideRide()
        var pipeline = DevicePipeline(regions: ride.regions)
        let events = run(&pipeline, ride.fixes.map { .fix($0) })
        let transitions = events.compactMap { event -> String? in
            guard case .region(let transition) = event else { return nil }
            return "\(transition.kind.rawValue) \(transition.identifier)"
        }
        // README: the ride leaves the trailhead first and enters the forest next; 7 enters, 7 exits.
        #expect(transitions.prefix(2) == ["exit trailhead", "enter forest"])
        #expect(transitions.filter { $0.hasPrefix("enter") }.count == 7)
        #expect(transitions.filter { $0.hasPrefix("exit") }.count == 7)
        guard case .state(_, let inside)? = events.first else { Issue.record("no initial state"); return }
        #expect(inside == ["trailhead"])
    }

    /// Faults a receiver produces (docs/semantics.md §2): none reaches the region engine or a
    /// service, so the events are those of the clean track.
    @Test func injectedFaultsChangeNoEvent() throws {
        let ride = try lakesideRide()
        let subscriber = Subscriber(id: .subscription("s"), services: Self.services)
        var clean = DevicePipeline(regions: ride.regions, subscribers: [subscriber])
        let expected = run(&clean, ride.fixes.map { .fix($0) })

        var faulty: [Fix] = []
        for (index, fix) in ride.fixes.enumerated() {
            faulty.append(fix)
            switch index % 97 {
            case 5: faulty.append(fix)  // duplicate
            case 17: faulty.append(ride.fixes[max(0, index - 10)])  // time going backwards
            case 29:  // an impossible jump: 50 km north a second later
                var jump = fix
                jump.time = fix.time!.adding(seconds: 0.5)
                jump.coordinate = Geodesic.destination(from: fix.coordinate, azimuth: 0, distance: 50_000)
                faulty.append(jump)
            case 41:  // invalid coordinates
                var broken = fix
                broken.time = fix.time!.adding(seconds: 0.25)
                broken.coordinate = Coordinate(latitude: .nan, longitude: 8.6)
                faulty.append(broken)
            case 53:
                var noFix = fix
                noFix.time = fix.time!.adding(seconds: 0.5)
                noFix.mode = FixMode.none
                faulty.append(noFix)
            default: break
            }
        }
        var pipeline = DevicePipeline(regions: ride.regions, subscribers: [subscriber])
        var dropped: [DropReason: Int] = [:]
        var events: [LocationEvent] = []
        for fix in faulty {
            let step = pipeline.handle(.fix(fix))
            events += step.events
            if let reason = step.regionDrop { dropped[reason, default: 0] += 1 }
        }
        events += pipeline.finish()
        #expect(events == expected)
        #expect(expected.contains { if case .region = $0 { true } else { false } })
        let injected = faulty.count - ride.fixes.count
        #expect(dropped.values.reduce(0, +) == injected)
        #expect(Set(dropped.keys) == [.duplicate, .timeBackwards, .impossibleJump, .invalidCoordinate, .noFix])
    }

    /// A restart resumes from the states the steps asked to save: the track fed in two halves,
    /// with the second pipeline built from the saved states, gives the events of one pass.
    @Test func savedStatesResumeWhereTheyLeftOff() throws {
        let ride = try lakesideRide()
        var whole = DevicePipeline(regions: ride.regions)
        let expected = run(&whole, ride.fixes.map { .fix($0) }).filter { if case .state = $0 { false } else { true } }

        // Split after a fix with nothing pending (raw membership agrees with the confirmed state).
        var first = DevicePipeline(regions: ride.regions)
        var saved: [String: SavedRegionState] = [:]
        var established: EstablishedRegions?
        var events: [LocationEvent] = []
        var split = 0
        for (index, fix) in ride.fixes.enumerated() {
            let step = first.handle(.fix(fix))
            events += step.events.filter { if case .state = $0 { false } else { true } }
            for state in step.states { saved[state.identifier] = state }
            if let together = step.regionsEstablished { established = together }
            if index > ride.fixes.count / 2, first.regionMonitor.raw == first.regionMonitor.inside {
                split = index + 1
                break
            }
        }
        #expect(split > 0)
        #expect(!saved.isEmpty)
        #expect(established != nil, "the first fix establishes every region together")
        var second = DevicePipeline(regions: ride.regions, savedStates: SavedRegionStates(Array(saved.values), established: established))
        let rest = run(&second, ride.fixes[split...].map { .fix($0) })
        #expect(!rest.contains { if case .state = $0 { true } else { false } })
        events += rest
        #expect(events == expected)
    }

    /// Region events of a fix (the state, then the place it is in: the trailhead) come before its
    /// service records, and subscribers in their order.
    @Test func orderWithinOneFix() throws {
        let ride = try lakesideRide()
        let a = Subscriber(id: .handler("a"), services: ServiceSubscription(significantChange: SignificantChangeThresholds()))
        let b = Subscriber(id: .subscription("b"), services: ServiceSubscription(significantChange: SignificantChangeThresholds()))
        var pipeline = DevicePipeline(regions: ride.regions, subscribers: [a, b])
        let first = pipeline.handle(.fix(ride.fixes[0])).events
        #expect(first.map(\.kind) == [.state, .place, .significantChange, .significantChange])
        #expect(first.compactMap(\.subscriber) == [.handler("a"), .subscription("b")])
    }

    /// Replacing the subscribers keeps an unchanged one's running state (its significant-change
    /// anchor) and starts a changed one afresh.
    @Test func replacingSubscribersKeepsUnchangedOnes() throws {
        let ride = try lakesideRide()
        let kept = Subscriber(id: .handler("kept"), services: ServiceSubscription(significantChange: SignificantChangeThresholds()))
        var pipeline = DevicePipeline(regions: [], subscribers: [kept])
        _ = pipeline.handle(.fix(ride.fixes[0]))
        let added = Subscriber(id: .handler("added"), services: ServiceSubscription(significantChange: SignificantChangeThresholds()))
        pipeline.replaceSubscribers([kept, added])
        let events = pipeline.handle(.fix(ride.fixes[1])).events
        // Only the new subscriber's first fix is significant; the kept one remembers its anchor.
        #expect(events.compactMap(\.subscriber) == [.handler("added")])
        #expect(pipeline.statistics(of: .handler("kept"))?.accepted == 2)
    }

    /// Untimed fixes (a GPX track without times) still reach the region engine, which confirms
    /// on distance alone; services drop them.
    @Test func untimedFixesReachTheRegionEngineOnly() throws {
        let ride = try lakesideRide()
        let untimed = ride.fixes.map { fix -> Fix in
            var copy = fix
            copy.time = nil
            return copy
        }
        var pipeline = DevicePipeline(
            regions: ride.regions, subscribers: [Subscriber(id: .subscription("s"), services: Self.services)])
        let events = run(&pipeline, untimed.map { .fix($0) })
        #expect(events.contains { if case .region = $0 { true } else { false } })
        #expect(!events.contains { $0.subscriber != nil })
        #expect(pipeline.statistics(of: .subscription("s"))?.dropped[.noTime] == untimed.count)
    }
}
