import Testing
import WaymarkCore
import WaymarkServices

/// One subscription's path: its gate, its services in order, its authorization.
@Suite struct SubscriptionPipelineTests {
    /// Runs `subscription` over `fixes` and its finish, returning the records and the pipeline.
    private func run(_ subscription: ServiceSubscription, _ fixes: [Fix]) -> ([LocationRecord], SubscriptionPipeline) {
        var pipeline = SubscriptionPipeline(subscription)
        var records: [LocationRecord] = []
        for fix in fixes {
            if case .accepted(let emitted) = pipeline.process(fix) { records += emitted }
        }
        records += pipeline.finish()
        return (records, pipeline)
    }

    @Test func theDesiredAccuracyOfStandardUpdatesGatesEveryServiceAndIsCounted() {
        let subscription = ServiceSubscription(
            standard: .init(desiredAccuracy: .tenMeters), significantChange: SignificantChangeThresholds())
        let (records, pipeline) = run(subscription, [
            fix(north: 0, at: 0, horizontalAccuracy: 5),
            fix(north: 600, at: 300, horizontalAccuracy: 25),  // too coarse: no service sees it
            fix(north: 1200, at: 600, horizontalAccuracy: 10),  // exactly the desired accuracy: admitted
        ])
        #expect(pipeline.accepted == 2)
        #expect(pipeline.dropped == [.inaccurate: 1])
        #expect(records.map(\.kind) == [.location, .significantChange, .location, .significantChange])
        #expect(records.map(\.time) == [0, 0, 600, 600].map { startTime.adding(seconds: $0) })
    }

    @Test func withoutStandardUpdatesAccuracyIsNotAGateRule() {
        let subscription = ServiceSubscription(significantChange: SignificantChangeThresholds())
        let (records, pipeline) = run(subscription, [
            fix(north: 0, at: 0, horizontalAccuracy: 900), fix(north: 600, at: 300, horizontalAccuracy: 900),
        ])
        #expect(pipeline.dropped.isEmpty)
        #expect(records.count == 2)
    }

    @Test func theActivityBoundsJumps() {
        // 400 m in 20 s is 20 m/s: too fast on foot, fine by car.
        let fixes = [fix(north: 0, at: 0), fix(north: 400, at: 20), fix(north: 800, at: 40)]
        let (_, onFoot) = run(ServiceSubscription(standard: .init(), activity: .fitness), fixes)
        let (_, byCar) = run(ServiceSubscription(standard: .init(), activity: .automotive), fixes)
        #expect(onFoot.dropped == [.impossibleJump: 2])  // the third is measured from the first, the last admitted
        #expect(byCar.dropped.isEmpty)
    }

    @Test func approximateAuthorizationCoarsensEveryRecordIncludingAReleasedBatch() {
        var subscription = ServiceSubscription(standard: .init(deferredInterval: 3600))
        subscription.authorization.precision = .approximate
        let fixes = (0..<5).map { fix(north: Double($0) * 20, at: Double($0) * 10) }
        let (records, _) = run(subscription, fixes)
        #expect(records.count == 5)  // all held in the batch, released by finish
        #expect(records.allSatisfy { $0.coordinate == ApproximateLocation.coarsen($0.coordinate) })
        #expect(Set(records.map(\.coordinate)) == [ApproximateLocation.coarsen(origin)])
    }

    @Test func recordsOfOneFixComeInServiceOrder() {
        let subscription = ServiceSubscription(
            standard: .init(), significantChange: SignificantChangeThresholds(),
            visits: VisitThresholds(radius: 100, minimumDuration: 60))
        let (records, _) = run(subscription, [fix(north: 0, at: 0), fix(north: 10, at: 60)])
        #expect(records.map(\.kind) == [.location, .significantChange, .location, .visit])
    }

    @Test func noServiceMeansAnEmptySubscription() {
        #expect(ServiceSubscription().isEmpty)
        #expect(!ServiceSubscription(visits: VisitThresholds()).isEmpty)
    }
}
