import Foundation
import Logging
import ServiceLifecycle
import WaymarkAPI
import WaymarkBeacons
import WaymarkCore
import WaymarkPipeline
import WaymarkSources

/// Feeds the pipeline iBeacon advertisements from a Bluetooth adapter, and lets beacon time
/// follow the wall clock once a second so exits fall due when a beacon goes quiet. When the
/// adapter is missing or refuses to scan, it says why (log and status) and tries again every
/// `retryInterval`; the rest of the daemon carries on either way.
struct BluetoothFeedService: Service {
    let settings: BluetoothSettings
    let pipeline: LivePipeline
    let logger: Logger
    /// The adapter's scan; by default the adapter `settings` names, found in sysfs.
    var scanner: (any BeaconScanner)?
    var sysfs = "/sys/class/bluetooth"
    var retryInterval: Duration = .seconds(30)

    func run() async throws {
        let source = scanner ?? BluetoothBeaconSource(adapter: settings.adapter, scan: settings.scan, sysfs: sysfs, logger: logger)
        var lastProblem: String?
        // Up while it scans; the first state is learnt, changes after it are accessory events.
        var presence = PresenceWatch()
        func adapter(up: Bool) async {
            guard let change = presence.see(up) else { return }
            await pipeline.handle(.accessory(change ? .adapterUp : .adapterDown, device: settings.adapter ?? source.description))
        }
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                let stream = try source.start()
                lastProblem = nil
                await report(source, scanning: true, error: nil)
                await adapter(up: true)
                try await consume(stream)
                await report(source, scanning: false, error: "the scan ended")
                await adapter(up: false)
            } catch {
                let problem = "\(error)"
                if problem != lastProblem {
                    logger.error("Bluetooth beacon source unavailable; retrying", metadata: ["error": "\(problem)", "source": "\(source.description)"])
                }
                lastProblem = problem
                await report(source, scanning: false, error: problem)
                await adapter(up: false)
            }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: retryInterval) }
        }
    }

    private func report(_ source: any BeaconScanner, scanning: Bool, error: String?) async {
        await pipeline.beaconSourceChanged(.init(
            kind: .bluetooth, description: source.description, scanning: scanning, lastError: error,
            scanInterval: settings.scan.interval, scanWindow: settings.scan.window))
    }

    /// Advertisements until the stream ends or the daemon shuts down; a tick each second.
    private func consume(_ stream: AsyncThrowingStream<BeaconAdvertisement, any Error>) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for try await advertisement in stream.cancelOnGracefulShutdown() {
                    await pipeline.handle(.advertisement(advertisement))
                }
            }
            group.addTask {
                while !Task.isCancelled {
                    try await Task.sleep(for: .seconds(1))
                    await pipeline.handle(.tick(Timestamp(secondsSince1970: Date().timeIntervalSince1970)))
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }
}
