import Foundation
import Testing
import WaymarkStore

/// An actor on a `DedicatedThreadExecutor` runs every job on that one thread (never the
/// cooperative pool's), one at a time, in the order each caller sent them.
@Suite struct DedicatedThreadExecutorTests {
    actor Recorder {
        static let executor = DedicatedThreadExecutor(name: "waymark-test-ex")
        nonisolated var unownedExecutor: UnownedSerialExecutor { Self.executor.asUnownedSerialExecutor() }

        var seen: [Int] = []
        var threads: Set<String> = []
        var running = 0
        var overlapped = false
        var elsewhere = 0

        func record(_ value: Int) {
            running += 1
            defer { running -= 1 }
            if running > 1 { overlapped = true }
            seen.append(value)
            if !Self.executor.isCurrent { elsewhere += 1 }
            let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "?"
            threads.insert(name.trimmingCharacters(in: .newlines))
        }
    }

    @Test func jobsRunOnItsThreadOneAtATimeInEachCallersOrder() async {
        let recorder = Recorder()
        await withTaskGroup(of: Void.self) { group in
            for caller in 0..<4 {
                group.addTask {
                    for step in 0..<250 { await recorder.record(caller * 1_000 + step) }
                }
            }
        }
        let seen = await recorder.seen
        #expect(seen.count == 1_000)
        for caller in 0..<4 {
            let own = seen.filter { $0 / 1_000 == caller }
            #expect(own == (0..<250).map { caller * 1_000 + $0 })
        }
        #expect(await recorder.elsewhere == 0)
        // Named as asked (what `top -H` shows).
        let threads = await recorder.threads
        #expect(threads == ["waymark-test-ex"], "ran on threads named \(threads)")
        #expect(await recorder.overlapped == false)
    }
}
