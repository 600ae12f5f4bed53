import Testing
import WaymarkCore
import WaymarkServices

/// `TimelineSegmenter(resumingAfter:)` is what the store does after a restart or for a new range:
/// keep the completed stays and trips, and compute on from the last stored stay's last fix. For
/// every stay of a run, segmenting everything must equal segmenting up to that stay's departure
/// and resuming after its last fix with the fixes that follow.
@Suite("TimelineSegmenter resuming")
struct TimelineSegmenterResumeTests {
    /// A week of errands: 40 stays of 6 to 90 minutes at places up to 6 km apart, reached on
    /// foot, by bicycle or by car, some with the recording silent at the place.
    static func errands(seed: UInt64) -> [Fix] {
        var random = SplitMix64(seed: seed)
        var day = SimulatedDay(at: origin)
        for _ in 0..<40 {
            day.stay(for: random.uniform(360...5400), every: random.uniform(0...1) < 0.5 ? 5 : 30)
            if random.uniform(0...1) < 0.2 { day.silence(for: random.uniform(400...4000)) }
            let target = offset(north: random.uniform(-3000...3000), east: random.uniform(-3000...3000))
            day.travel(to: target, speed: [1.4, 5, 15][Int(random.uniform(0...2.99))], every: random.uniform(1...8))
        }
        day.stay(for: 1800)
        return observed(day.fixes, seed: seed)
    }

    static func assertResumingEqualsContinuing(_ fixes: [Fix]) {
        var continuous = TimelineSegmenter()
        var emitted: [(segments: [TimelineSegment], fix: Int)] = []
        for (index, fix) in fixes.enumerated() { emitted.append((continuous.process(fix), index)) }
        let all = emitted.flatMap(\.segments)
        var checked = 0
        for (count, segment) in all.enumerated() {
            guard case .stay(let stay) = segment else { continue }
            // The store keeps the segments up to this stay and the stay's last fix.
            guard let last = fixes.firstIndex(where: { $0.time == stay.departure }) else {
                Issue.record("no fix at the departure \(stay.departure)")
                continue
            }
            var resumed = TimelineSegmenter(resumingAfter: fixes[last])
            let after = fixes[(last + 1)...].flatMap { resumed.process($0) }
            #expect(Array(all[...count]) + after == all, "resuming after the stay ending \(stay.departure)")
            #expect(resumed.open == continuous.open)
            checked += 1
        }
        #expect(checked >= 3)
    }

    @Test(arguments: [21, 22, 23] as [UInt64])
    func resumingAfterAnyStayEqualsContinuing(seed: UInt64) {
        Self.assertResumingEqualsContinuing(Self.errands(seed: seed))
    }

    @Test func resumingOnTheNoisyDayEqualsContinuing() {
        Self.assertResumingEqualsContinuing(observed(TimelineSegmenterTests.day().truth, seed: 7))
    }
}
