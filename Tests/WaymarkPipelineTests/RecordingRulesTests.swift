import Testing
import WaymarkCore
import WaymarkPipeline
import WaymarkRegions
import WaymarkServices

/// The rules every runtime applies to a live fix before it is recorded, and the recording
/// policy (docs/semantics.md, "What is recorded"): the single daemon and a fleet worker both
/// call `DevicePipeline.record`, so these are tested once, here.
@Suite struct RecordingRulesTests {
    static let centre = Coordinate(latitude: 47.37, longitude: 8.54)
    static let start = Timestamp(nanosecondsSince1970: 1_700_000_000_000_000_000)
    static let home = Region(identifier: "home", shape: .circle(center: centre, radius: 100))

    static func fix(_ seconds: Double?, at coordinate: Coordinate = centre) -> Fix {
        Fix(time: seconds.map { start.adding(seconds: $0) }, coordinate: coordinate, horizontalAccuracy: 5, mode: .threeD)
    }

    static func arrival(_ seconds: Double, network: Bool = true) -> Arrival {
        Arrival(time: start.adding(seconds: seconds), judgesFuture: network)
    }

    @Test func anUntimedFixIsStampedOnArrivalAndRecorded() {
        var pipeline = DevicePipeline(regions: [Self.home])
        let recorded = pipeline.record(fix: Self.fix(nil), arrival: Self.arrival(42, network: false))
        #expect(recorded.fix?.time == Self.start.adding(seconds: 42))
        #expect(recorded.time == Self.start.adding(seconds: 42))
        #expect(recorded.drop == nil)
        #expect(recorded.events.first?.kind == .state, "the stamped fix establishes the regions like any other")
    }

    @Test func aPositionNotOnEarthIsNeitherRunNorRecorded() {
        var pipeline = DevicePipeline(regions: [Self.home])
        let recorded = pipeline.record(fix: Self.fix(0, at: Coordinate(latitude: 91, longitude: 8)), arrival: Self.arrival(0))
        #expect(recorded.fix == nil && recorded.drop == .invalidCoordinate && recorded.events.isEmpty)
        // The pipeline did not see it: the next good fix is the first, and establishes the state.
        #expect(pipeline.record(fix: Self.fix(1), arrival: Self.arrival(1)).events.first?.kind == .state)
    }

    @Test func aFixFromTheFutureIsRecordedOnlyWhenItsArrivalIsNotJudged() {
        var network = DevicePipeline(regions: [Self.home])
        let judged = network.record(fix: Self.fix(3600), arrival: Self.arrival(0))
        #expect(judged.fix == nil && judged.drop == .fromFuture)

        var receiver = DevicePipeline(regions: [Self.home])
        let trusted = receiver.record(fix: Self.fix(3600), arrival: Self.arrival(0, network: false))
        #expect(trusted.fix?.time == Self.start.adding(seconds: 3600) && trusted.drop == nil)
    }

    @Test func aGapAfterAFixIsFixLostAndTheNextFixIsFixRegainedAfterItsOwnEvents() {
        var pipeline = DevicePipeline(regions: [Self.home])
        let first = pipeline.record(fix: Self.fix(0), arrival: Self.arrival(0))
        #expect(!first.events.contains { $0.kind == .accessory }, "the first fix is learnt, not announced")

        let gap = pipeline.record(gap: Self.start.adding(seconds: 10), reason: "no fix")
        #expect(gap.recordings == [.gap(time: Self.start.adding(seconds: 10), reason: "no fix"), accessory(.fixLost, at: 10)])
        let secondGap = pipeline.record(gap: Self.start.adding(seconds: 20), reason: "no fix")
        #expect(secondGap.events.count == 1, "lost once, not per gap")

        let back = pipeline.record(fix: Self.fix(30), arrival: Self.arrival(30))
        #expect(back.recordings == [accessory(.fixRegained, at: 30)])
        #expect(back.fix != nil)
    }

    func accessory(_ change: AccessoryEvent.Change, at seconds: Double) -> Recording {
        AccessoryEvent(time: Self.start.adding(seconds: seconds), change: change).asRecording
    }

    @Test func thePolicyKeepsTransitionsAndSubscriptionsButNotTheInitialStateNorHandlersRecords() {
        let services = ServiceSubscription(standard: StandardUpdates.Configuration())
        var pipeline = DevicePipeline(
            regions: [Self.home], subscribers: [Subscriber(id: .subscription("log"), services: services), Subscriber(id: .handler("app"), services: services)])
        let first = pipeline.record(fix: Self.fix(0, at: Geodesic.destination(from: Self.centre, azimuth: 90, distance: 500)), arrival: Self.arrival(0))
        #expect(first.events.contains { $0.kind == .state })
        #expect(first.events.contains { $0.subscriber == .handler("app") })
        let kept = first.recordings.compactMap { recording -> EventRecord? in
            if case .event(let record) = recording { record } else { nil }
        }
        #expect(kept.count == 1, "the subscription's location only: \(kept)")
        #expect(kept.first?.kind == .location)
        #expect(kept.first?.record.hasSuffix(#","subscription":"log"}"#) == true)

        var entered: [EventRecord] = []
        for second in 1...120 {
            for case .event(let record) in pipeline.record(fix: Self.fix(Double(second)), arrival: Self.arrival(Double(second))).recordings {
                entered.append(record)
            }
        }
        let region = entered.filter { $0.kind == .region }
        #expect(region.map(\.transition) == [.enter] && region.first?.region == "home")
    }
}

extension AccessoryEvent {
    fileprivate var asRecording: Recording { LocationEvent.accessory(self).recording }
}
