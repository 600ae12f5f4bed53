import NIOCore
import Synchronization

/// The bodies being read on the device listener and when each must have arrived. A request
/// registers before it reads its body and checks out after; one sweeper, once a second while any
/// body is being read, closes the input of connections past their deadline, which ends the read,
/// and the request is answered 408.
///
/// Why not a timer per request: a sleeping child task per body (what this replaced) cost each
/// request a task group, two child tasks and a GCD timer armed through the dispatch manager's
/// pipe — about a tenth of a request's CPU (BENCHMARKS.md). A deadline here is kept to within a
/// second, which is all a 10-second limit needs; and the sweeper sleeps while nothing is read, so
/// an idle daemon is not woken (BENCHMARKS.md, at rest).
final class BodyDeadlines: Sendable {
    private struct Reading {
        let deadline: ContinuousClock.Instant
        let channel: any Channel
    }

    private struct State {
        var nextID = 0
        var reading: [Int: Reading] = [:]
        var expired: Set<Int> = []
        /// The sweeper waits for a wake rather than ticking.
        var sweeperIdle = true
    }

    private let state = Mutex(State())
    private let wakes: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation
    let timeout: Duration

    init(timeout: Duration) {
        self.timeout = timeout
        (wakes, wake) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Registers a body read on `channel`; pass the result to `finish`.
    func begin(on channel: any Channel) -> Int {
        let deadline = ContinuousClock.now + timeout
        let (id, wakeSweeper) = state.withLock { state in
            state.nextID += 1
            state.reading[state.nextID] = Reading(deadline: deadline, channel: channel)
            defer { state.sweeperIdle = false }
            return (state.nextID, state.sweeperIdle)
        }
        if wakeSweeper { wake.yield() }
        return id
    }

    /// Ends a read; true when its deadline had passed and its connection's input was closed.
    func finish(_ id: Int) -> Bool {
        state.withLock { state in
            state.reading[id] = nil
            return state.expired.remove(id) != nil
        }
    }

    /// Closes the input of every read past its deadline at `now`.
    func sweep(now: ContinuousClock.Instant = .now) {
        let late = state.withLock { state in
            let late = state.reading.filter { $0.value.deadline <= now }
            for id in late.keys {
                state.reading[id] = nil
                state.expired.insert(id)
            }
            return late.values.map(\.channel)
        }
        for channel in late { channel.close(mode: .input, promise: nil) }
    }

    /// Sweeps once a second while bodies are being read, until cancelled.
    func run() async {
        for await _ in wakes {
            while true {
                do { try await Task.sleep(for: .seconds(1)) } catch { return }
                sweep()
                let idle = state.withLock { state in
                    state.sweeperIdle = state.reading.isEmpty
                    return state.sweeperIdle
                }
                if idle { break }
            }
        }
    }
}
