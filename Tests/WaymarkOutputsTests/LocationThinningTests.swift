import Testing
import WaymarkCore
import WaymarkOutputs

@Suite struct LocationThinningTests {
    static func fix(_ device: String, at seconds: Double, sequence: Int64) -> OutputFix {
        OutputFix(sequence: sequence, device: device, time: Timestamp(secondsSince1970: seconds), coordinate: Coordinate(latitude: 1, longitude: 2))
    }

    @Test func onePerIntervalOfFixTimePerDevice() {
        var thinning = LocationThinning(interval: 10)
        var published: [Int64] = []
        // Two devices at 1 Hz for 25 s, interleaved.
        var sequence: Int64 = 0
        for second in 0..<25 {
            for device in ["a", "b"] {
                sequence += 1
                if let fix = thinning.offer(Self.fix(device, at: Double(second), sequence: sequence), now: 0) { published.append(fix.sequence) }
            }
        }
        // Each device at 0, 10 and 20 s.
        #expect(published == [1, 2, 21, 22, 41, 42])
        // Their fixes at 24 s wait; nothing is due before the interval has passed on the clock.
        #expect(thinning.oldestWaiting == 49)
        #expect(thinning.due(now: 9.9).isEmpty)
        #expect(thinning.nextDue == 10)
        #expect(thinning.due(now: 10).map(\.sequence) == [49, 50])
        #expect(thinning.oldestWaiting == nil && thinning.nextDue == nil)
    }

    @Test func aWaitingFixIsReplacedByALaterOneButKeepsItsDueTime() {
        var thinning = LocationThinning(interval: 10)
        #expect(thinning.offer(Self.fix("a", at: 0, sequence: 1), now: 100) != nil)
        #expect(thinning.offer(Self.fix("a", at: 3, sequence: 2), now: 103) == nil)
        #expect(thinning.offer(Self.fix("a", at: 6, sequence: 3), now: 106) == nil)
        #expect(thinning.nextDue == 113 && thinning.oldestWaiting == 3)
        #expect(thinning.due(now: 113).map(\.sequence) == [3])
        // The published waiting fix counts: the next one is 10 s of fix time after it.
        #expect(thinning.offer(Self.fix("a", at: 12, sequence: 4), now: 114) == nil)
        #expect(thinning.offer(Self.fix("a", at: 16, sequence: 5), now: 118)?.sequence == 5)
        #expect(thinning.oldestWaiting == nil)
    }

    @Test func zeroPublishesEveryFixAndTimeGoingBackIsPublished() {
        var every = LocationThinning(interval: 0)
        #expect((1...5).compactMap { every.offer(Self.fix("a", at: 0, sequence: Int64($0)), now: 0) }.count == 5)
        var thinning = LocationThinning(interval: 10)
        _ = thinning.offer(Self.fix("a", at: 100, sequence: 1), now: 0)
        #expect(thinning.offer(Self.fix("a", at: 50, sequence: 2), now: 0) != nil)
    }
}
