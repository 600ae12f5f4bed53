import Synchronization
import WaymarkCore

/// A `WallClock` that moves only when the test moves it: sleepers whose deadline is reached
/// resume, in deadline order.
public final class ManualWallClock: WallClock {
    private struct Sleeper {
        var deadline: Timestamp
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Timestamp
        var sleepers: [Int: Sleeper] = [:]
        var nextID = 0
    }

    private let state: Mutex<State>

    public init(_ start: Timestamp) { state = Mutex(State(now: start)) }

    public var now: Timestamp { state.withLock { $0.now } }

    /// How many tasks are sleeping on this clock.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// The earliest deadline anyone sleeps until.
    public var nextDeadline: Timestamp? { state.withLock { $0.sleepers.values.map(\.deadline).min() } }

    public func sleep(until deadline: Timestamp) async throws {
        let id = state.withLock { s in
            defer { s.nextID += 1 }
            return s.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: Bool = state.withLock { s in
                    if deadline <= s.now || Task.isCancelled { return true }
                    s.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return false
                }
                if resumeNow { Task.isCancelled ? continuation.resume(throwing: CancellationError()) : continuation.resume() }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock to `time` (never back) and resumes every sleeper whose deadline it reaches.
    public func advance(to time: Timestamp) {
        let due = state.withLock { s -> [Sleeper] in
            s.now = max(s.now, time)
            let ready = s.sleepers.filter { $0.value.deadline <= s.now }
            for id in ready.keys { s.sleepers.removeValue(forKey: id) }
            return ready.values.sorted { $0.deadline < $1.deadline }
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    public func advance(by seconds: Double) { advance(to: now.adding(seconds: seconds)) }
}
