import Testing
import WaymarkCore

@testable import WaymarkStore

/// The writer's queue rules as a value: no thread, no database, no real time.
@Suite struct StoreWriterQueueTests {
    typealias Queue = StoreWriterQueue<String>
    let t0 = ContinuousClock.now

    func submission(_ writes: Int, _ durability: Durability = .recorded, at offset: Duration = .zero) -> WriterSubmission {
        WriterSubmission(
            writes: (0..<writes).map { WriterSample.fix($0) }, durability: durability, urgent: durability == .durable,
            completion: nil, enqueuedAt: t0 + offset)
    }

    func groupSizes(_ step: Queue.Step) -> [Int]? {
        guard case .commit(let group, _) = step else { return nil }
        return group.map(\.writes.count)
    }

    @Test func aFullQueueParksInOrderAndAdmitsWhenAGroupIsTaken() {
        var queue = Queue(capacity: 3, maxBatch: 10, maxDelay: .zero)
        #expect(queue.offer(submission(1), waker: "a") == .queued(wakeWriter: false))
        #expect(queue.offer(submission(2), waker: "b") == .queued(wakeWriter: false))
        #expect(queue.offer(submission(1), waker: "c") == .parked(wakeWriter: false))
        // It would fit by size after c, but c is parked before it: it parks too (order is kept).
        #expect(queue.offer(submission(1), waker: "d") == .parked(wakeWriter: false))
        guard case .commit(let group, let admitted) = queue.next(now: t0) else {
            Issue.record("expected a group")
            return
        }
        #expect(group.map(\.writes.count) == [1, 2])
        #expect(admitted == ["c", "d"])
        #expect(queue.pendingPlaces == 2)
    }

    @Test func aSubmissionLargerThanTheQueueGoesThroughAlone() {
        var queue = Queue(capacity: 3, maxBatch: 4, maxDelay: .zero)
        #expect(queue.offer(submission(9), waker: nil) == .queued(wakeWriter: false))
        #expect(queue.offer(submission(1), waker: nil) == .parked(wakeWriter: false))
        #expect(groupSizes(queue.next(now: t0)) == [9])
        #expect(groupSizes(queue.next(now: t0)) == [1])
    }

    @Test func groupsStopAtMaxBatchWithoutSplittingASubmission() {
        var queue = Queue(capacity: 100, maxBatch: 5, maxDelay: .zero)
        for writes in [3, 2, 3, 7, 1] { _ = queue.offer(submission(writes), waker: nil) }
        #expect(groupSizes(queue.next(now: t0)) == [3, 2])
        #expect(groupSizes(queue.next(now: t0)) == [3])
        #expect(groupSizes(queue.next(now: t0)) == [7])
        #expect(groupSizes(queue.next(now: t0)) == [1])
    }

    @Test func aSmallRecordedGroupWaitsForCompanyUntilItsOldestHasWaitedMaxDelay() {
        var queue = Queue(capacity: 100, maxBatch: 10, maxDelay: .milliseconds(2))
        #expect(queue.next(now: t0) == nil)
        // The writer sleeps with nothing queued: the first offer wakes it, the next does not.
        #expect(queue.offer(submission(1), waker: nil) == .queued(wakeWriter: true))
        #expect(queue.next(now: t0 + .milliseconds(1)) == t0 + .milliseconds(2))
        #expect(queue.offer(submission(1, at: .milliseconds(1)), waker: nil) == .queued(wakeWriter: false))
        #expect(groupSizes(queue.next(now: t0 + .milliseconds(2))) == [1, 1])
    }

    @Test(arguments: ["durable", "maxBatch", "closing"])
    func urgentGroupsAreTakenAtOnce(_ reason: String) {
        var queue = Queue(capacity: 100, maxBatch: 3, maxDelay: .seconds(60))
        _ = queue.offer(submission(1), waker: nil)
        #expect(queue.next(now: t0) == t0 + .seconds(60))
        let wake: Bool
        switch reason {
        case "durable":
            wake = queue.offer(submission(1, .durable), waker: nil) == .queued(wakeWriter: true)
        case "maxBatch":
            wake = queue.offer(submission(2), waker: nil) == .queued(wakeWriter: true)
        default:
            wake = queue.close()
        }
        #expect(wake, "the sleeping writer is woken")
        #expect(groupSizes(queue.next(now: t0)) != nil)
    }

    @Test func closingRefusesNewSubmissionsAndFinishesOnceDrained() {
        var queue = Queue(capacity: 2, maxBatch: 10, maxDelay: .seconds(60))
        _ = queue.offer(submission(2), waker: nil)
        _ = queue.offer(submission(1), waker: "parked")
        _ = queue.close()
        #expect(queue.offer(submission(1), waker: nil) == .refused)
        guard case .commit(_, let admitted) = queue.next(now: t0) else {
            Issue.record("expected a group")
            return
        }
        #expect(admitted == ["parked"], "submitted before closing: still committed")
        #expect(groupSizes(queue.next(now: t0)) == [1])
        guard case .finish = queue.next(now: t0) else {
            Issue.record("expected the writer to finish")
            return
        }
    }
}

extension StoreWriterQueue.Step {
    /// Compares a `wait` step with its deadline (`nil` for "until woken"); other steps never equal.
    static func == (step: Self, deadline: ContinuousClock.Instant?) -> Bool {
        if case .wait(let until) = step { return until == deadline }
        return false
    }
}
