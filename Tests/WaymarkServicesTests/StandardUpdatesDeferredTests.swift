import Testing
import WaymarkCore
@testable import WaymarkServices

@Suite struct StandardUpdatesDeferredTests {
    /// 25 m every 10 s; a 100 m batch is released with the fix that brings the sum to 100 m
    /// (the 5th), and `finish()` flushes the rest.
    @Test func releasesBatchesByDistance() {
        let fixes = (0..<8).map { StandardTrack.fix(Double($0) * 25, at: Double($0) * 10) }
        #expect(
            StandardTrack.run(.init(deferredDistance: 100), fixes) == [
                "location 0 b1 @4", "location 10 b1 @4", "location 20 b1 @4", "location 30 b1 @4",
                "location 40 b1 @4",
                "location 50 b2 @end", "location 60 b2 @end", "location 70 b2 @end",
            ])
    }

    /// The distance is summed along the batch, not measured from its first fix.
    @Test func batchDistanceIsTheSumOfSteps() {
        let fixes = [0, 40, 0, 30].enumerated().map { StandardTrack.fix(Double($0.element), at: Double($0.offset)) }
        #expect(
            StandardTrack.run(.init(deferredDistance: 100), fixes) == [
                "location 0 b1 @3", "location 1 b1 @3", "location 2 b1 @3", "location 3 b1 @3",
            ])
    }

    /// Released once 60 s have passed since the batch's first fix, at exactly 60 s.
    @Test(arguments: [
        (60.0, ["location 0 b1 @3", "location 20 b1 @3", "location 40 b1 @3", "location 60 b1 @3",
                "location 80 b2 @end", "location 100 b2 @end"]),
        (61, ["location 0 b1 @4", "location 20 b1 @4", "location 40 b1 @4", "location 60 b1 @4",
              "location 80 b1 @4", "location 100 b2 @end"]),
    ] as [(Double, [String])])
    func releasesBatchesByInterval(interval: Double, expected: [String]) {
        let fixes = (0..<6).map { StandardTrack.fix(Double($0) * 5, at: Double($0) * 20) }
        #expect(StandardTrack.run(.init(deferredInterval: interval), fixes) == expected)
    }

    /// A fix the distance filter holds back still tells the time: the batch goes out with it.
    @Test func filteredFixReleasesBatchWhenIntervalPassed() {
        let fixes = [StandardTrack.fix(0, at: 0), StandardTrack.fix(5, at: 30), StandardTrack.fix(10, at: 60)]
        #expect(
            StandardTrack.run(.init(distanceFilter: 50, deferredInterval: 60), fixes) == ["location 0 b1 @2"])
    }

    /// Whichever limit comes first releases the batch: distance for the first, time for the second.
    @Test func eitherLimitReleases() {
        let fixes = zip([0.0, 40, 80, 81, 82, 83, 84], [0.0, 10, 20, 30, 40, 50, 60]).map {
            StandardTrack.fix($0.0, at: $0.1)
        }
        #expect(
            StandardTrack.run(.init(deferredDistance: 80, deferredInterval: 25), fixes) == [
                "location 0 b1 @2", "location 10 b1 @2", "location 20 b1 @2",
                "location 30 b2 @6", "location 40 b2 @6", "location 50 b2 @6", "location 60 b2 @6",
            ])
    }

    @Test func finishWithNothingHeldIsEmpty() {
        var service = StandardUpdates(configuration: .init(deferredDistance: 100))
        #expect(service.finish().isEmpty)
        var immediate = StandardUpdates()
        #expect(immediate.process(StandardTrack.fix(0, at: 0)).count == 1)
        #expect(immediate.finish().isEmpty)
    }

    /// Pausing releases what is held first, so records stay in time order.
    @Test func pauseReleasesTheBatchFirst() {
        let fixes = [StandardTrack.fix(0, at: 0), StandardTrack.fix(10, at: 100), StandardTrack.fix(5, at: 180)]
        #expect(
            StandardTrack.run(.init(pausesAutomatically: true, deferredInterval: 600), fixes) == [
                "location 0 b1 @2", "location 100 b1 @2", "paused 180 @2",
            ])
    }

    @Test func batchedRecordsKeepTheirFields() throws {
        var service = StandardUpdates(configuration: .init(deferredInterval: 600))
        _ = service.process(StandardTrack.fix(0, at: 0, accuracy: 4, speed: 1.5))
        let record = try #require(service.finish().first)
        #expect(record.json.hasSuffix(#","horizontalAccuracy":4,"speed":1.5,"batch":1}"#))
    }
}
