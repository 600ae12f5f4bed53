import Logging
import WaymarkCore
import WaymarkDelivery
import WaymarkOutputs
import WaymarkStore

/// Publishes one output's positions (docs/outputs.md): reads the history's fixes after the
/// output's location cursor, 512 at a time, keeps those of the devices its filter wants, thins
/// them (`LocationThinning`) and publishes each, retried like events; a position still failing
/// after the keep time is passed over (the next one replaces it: no dead letter). The cursor is
/// saved through the batch, but never past a device's fix still waiting to go out, so a
/// restart publishes it; a restart may publish a few positions again, never lose the last.
struct LocationWorker: Sendable {
    let output: Output
    let store: WaymarkStore
    let publish: @Sendable (OutputFix) async -> DeliveryOutcome
    let activity: OutputActivity
    let logger: Logger

    func run(wakes: AsyncStream<Void>) async {
        guard output.disabled == nil else { return }
        var thinning = LocationThinning(interval: Double(output.locationSeconds))
        var cursor = output.locationsThrough
        var saved = cursor
        // Woken by a commit of fixes, or when a waiting position falls due.
        let (bells, ring) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let forward = Task {
            for await _ in wakes { ring.yield() }
            ring.finish()
        }
        var timer: Task<Void, Never>?
        defer {
            forward.cancel()
            timer?.cancel()
        }
        var wake = bells.makeAsyncIterator()
        let retry = DeliveryRetry(output: output.name, keep: .seconds(output.keepSeconds), activity: activity, logger: logger)
        while !Task.isCancelled {
            let batch: [OutputFix]
            do {
                batch = try await store.offPool { [cursor] in try $0.outputFixes(after: cursor, limit: 512) }
            } catch {
                logger.error("Cannot read fixes for an output", metadata: ["output": "\(output.name)", "error": "\(error)"])
                do { try await Task.sleep(for: .seconds(1)) } catch { break }
                continue
            }
            var ready: [OutputFix] = []
            for fix in batch where output.filter.devices.isEmpty || output.filter.devices.contains(fix.device) {
                if let fix = thinning.offer(fix, now: MonotonicSeconds.now()) { ready.append(fix) }
            }
            ready += thinning.due(now: MonotonicSeconds.now())
            for fix in ready {
                switch await retry.run({ await publish(fix) }) {
                case .delivered: break
                case .cancelled: return
                case .gone(let reason), .gaveUp(let reason):
                    logger.warning("Output passed over a position", metadata: ["output": "\(output.name)", "error": "\(reason)"])
                }
            }
            cursor = batch.last?.sequence ?? cursor
            let safe = thinning.oldestWaiting.map { min(cursor, $0 - 1) } ?? cursor
            if safe > saved {
                do {
                    try await store.offPool { [name = output.name] in try $0.setOutputLocationCursor(name, through: safe) }
                    saved = safe
                } catch {
                    logger.error("Cannot save an output's progress", metadata: ["output": "\(output.name)", "error": "\(error)"])
                }
            }
            guard batch.isEmpty else { continue }
            timer?.cancel()
            if let due = thinning.nextDue {
                timer = Task { [wait = max(0.01, due - MonotonicSeconds.now())] in
                    do { try await Task.sleep(for: .milliseconds(Int(wait * 1000))) } catch { return }
                    ring.yield()
                }
            }
            guard await wake.next() != nil else { return }  // shutting down
        }
    }
}
