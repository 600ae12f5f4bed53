import Logging
import WaymarkCore
import WaymarkOutputs

/// Publishes one output's positions from its cursor (docs/outputs.md, "Positions"), for the
/// single daemon and a fleet's output nodes alike: the fixes of the devices its filter wants,
/// thinned (`LocationThinning`), each retried like an event (`DeliveryRetry`); a position
/// still failing after the keep time is passed over (the device's next one replaces it: no dead
/// letter). A fix held back by the thinning stays with the cursor until it is published or
/// replaced, so a restart may publish a few positions again, never lose a device's last.
public struct PositionRunner<Cursor: PositionCursor>: Sendable {
    let output: Output
    let publish: @Sendable (OutputFix) async -> DeliveryOutcome
    let activity: OutputActivity
    let logger: Logger

    public init(output: Output, publish: @escaping @Sendable (OutputFix) async -> DeliveryOutcome, activity: OutputActivity, logger: Logger) {
        self.output = output
        self.publish = publish
        self.activity = activity
        self.logger = logger
    }

    /// Runs until the output stops (shutting down, given back, or its receiver said 410 to the
    /// events: the caller cancels this then).
    public func run(_ cursor: Cursor) async {
        guard output.disabled == nil else { return }
        var cursor = cursor
        var thinning = LocationThinning(interval: Double(output.locationSeconds))
        // Each device's fix held back by the thinning.
        var waiting: [String: OutputFix] = [:]
        let retry = DeliveryRetry(output: output.name, keep: .seconds(output.keepSeconds), activity: activity, logger: logger)

        /// Publishes `fix`, then it is settled; false when the output must stop.
        func send(_ fix: OutputFix) async throws -> Bool {
            switch await retry.run({ await publish(fix) }) {
            case .delivered: break
            case .cancelled: return false
            case .gone(let reason), .gaveUp(let reason):
                logger.warning("Output passed over a position", metadata: ["output": "\(output.name)", "error": "\(reason)"])
            }
            try await cursor.settle(fix)
            return true
        }

        reading: while !Task.isCancelled && !cursor.isStopping {
            do {
                let due = thinning.nextDue.map { Duration.milliseconds(Int(max(0.01, $0 - MonotonicSeconds.now()) * 1000)) }
                guard let fixes = try await cursor.next(due: due) else { break reading }
                for fix in fixes {
                    guard output.filter.devices.isEmpty || output.filter.devices.contains(fix.device) else {
                        try await cursor.settle(fix)
                        continue
                    }
                    let replaced = waiting.removeValue(forKey: fix.device)
                    if let now = thinning.offer(fix, now: MonotonicSeconds.now()) {
                        guard try await send(now) else { break reading }
                    } else {
                        waiting[fix.device] = fix
                        cursor.hold(fix)
                    }
                    if let replaced { try await cursor.settle(replaced) }
                }
                for fix in thinning.due(now: MonotonicSeconds.now()) {
                    waiting[fix.device] = nil
                    guard try await send(fix) else { break reading }
                }
                await cursor.checkpoint()
            } catch is CancellationError {
                break reading
            } catch {
                if Task.isCancelled { break reading }
                logger.error("Output positions interrupted", metadata: ["output": "\(output.name)", "error": "\(cursor.describe(error))"])
                do { try await Task.sleep(for: .seconds(1)) } catch { break reading }
            }
        }
        await cursor.release()
    }
}
