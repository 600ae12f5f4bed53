import Testing
import WaymarkCore
import WaymarkPipeline
import WaymarkServices

/// Issue 48, finding 8: one fix dated 2200 made the region gate and every subscriber's gate drop
/// each later real fix of the device as going backwards.
@Suite struct FutureFixTests {
    @Test func aFixFromTheFutureIsDroppedByEveryGateAndPoisonsNone() throws {
        let subscriber = Subscriber(id: .subscription("s"), services: ServiceSubscription(significantChange: SignificantChangeThresholds()))
        var pipeline = DevicePipeline(regions: [], subscribers: [subscriber])
        let start = Timestamp(rfc3339: "2026-06-01T08:00:00Z")!
        let here = Coordinate(latitude: 47, longitude: 8)
        #expect(pipeline.handle(.fix(Fix(time: start, coordinate: here)), receivedAt: start).regionDrop == nil)
        let future = Fix(time: Timestamp(rfc3339: "2200-01-01T00:00:00Z")!, coordinate: here)
        #expect(pipeline.handle(.fix(future), receivedAt: start.adding(seconds: 1)).regionDrop == .fromFuture)
        let next = Fix(time: start.adding(seconds: 10), coordinate: here)
        #expect(pipeline.handle(.fix(next), receivedAt: start.adding(seconds: 11)).regionDrop == nil)
        let statistics = try #require(pipeline.statistics(of: .subscription("s")))
        #expect(statistics.dropped == [.fromFuture: 1] && statistics.accepted == 2)
        #expect(pipeline.regionGate.dropped == [.fromFuture: 1])
    }
}
