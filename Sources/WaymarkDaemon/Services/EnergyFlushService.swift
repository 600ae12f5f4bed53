import Logging
import ServiceLifecycle
import WaymarkCore
import WaymarkStore

/// Stores the energy ledger just after every hour boundary of the daemon's clock, so each
/// closed hour is in the store within seconds of closing (also flushed on request by
/// `GET /v1/power`, and at shutdown by `Daemon.run`).
struct EnergyFlushService: Service {
    let pipeline: LivePipeline
    let clock: any WallClock
    /// The phones' estimates, stored with the ledger (docs/semantics.md §4.4).
    var phones: (meter: PhoneEnergyMeter, store: WaymarkStore, logger: Logger)? = nil

    /// Just after the next whole hour after `time`.
    static func nextFlush(after time: Timestamp) -> Timestamp {
        time.hourStart.adding(seconds: 3600.001)
    }

    func run() async throws {
        while !Task.isShuttingDownGracefully {
            do {
                try await cancelWhenGracefulShutdown { try await clock.sleep(until: Self.nextFlush(after: clock.now)) }
            } catch {
                return
            }
            await pipeline.flushEnergy()
            if let phones { await phones.meter.flush(to: phones.store, logger: phones.logger) }
        }
    }
}
