import Foundation
import Logging
import ServiceLifecycle
import WaymarkNATS
import WaymarkPipeline

/// A worker node (docs/fleet.md): owns a fair share of the partitions, runs their devices'
/// pipelines, writes history, events and state to PostGIS. Every second it says it is alive,
/// counts the live workers, takes free partitions up to its share and gives back any beyond
/// it, so partitions spread over the workers there are and move when one goes.
public struct FleetWorker: Service {
    public typealias Settings = ConsumerNodeSettings

    let settings: Settings
    let database: FleetDatabase
    let partitions: Int
    /// The rules every device's pipeline runs (`--config`, docs/fleet.md).
    let pipeline: PipelineSettings
    let logger: Logger

    public init(settings: Settings, database: FleetDatabase, partitions: Int, pipeline: PipelineSettings = .standard, logger: Logger) {
        self.settings = settings
        self.database = database
        self.partitions = partitions
        self.pipeline = pipeline
        self.logger = logger
    }

    public func run() async throws {
        let bus = try await FleetBus.connect(url: settings.natsURL, node: settings.name, logger: logger)
        let (nats, jetStream) = (bus.connection, bus.jetStream)
        let regions = try await RegionsBoard(database: database, settings: pipeline, logger: logger)
        let leases = try await AdvisoryLeases.partitions(database.address, node: settings.name, logger: logger)
        let started = Date()
        let heartbeat: @Sendable () async throws -> Void = {
            try await database.heartbeat(
                name: settings.name, role: "worker", startedAt: started, regionsVersion: await regions.current.version,
                partitions: await leases.owned.sorted())
        }
        try await heartbeat()
        logger.notice("worker started", metadata: ["name": "\(settings.name)", "partitions": "\(partitions)"])

        let runners = PartitionRunners()
        let makeConsumer: @Sendable (Int) -> PartitionConsumer = { partition in
            PartitionConsumer(
                partition: partition, partitions: partitions, jetStream: jetStream, database: database, regions: regions, settings: settings, logger: logger)
        }
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    try await RegionsWatch.run(database.address, logger: logger, refresh: { try await regions.refresh() }) { _ in
                        try? await heartbeat()
                    }
                }
                group.addTask {
                    try await cancelWhenGracefulShutdown {
                        while !Task.isCancelled {
                            try await heartbeat()
                            try await leases.check()
                            try bus.check()
                            let live = max(1, try await database.liveNodes(role: FleetRole.worker.rawValue))
                            try await rebalance(share: (partitions + live - 1) / live, leases: leases, runners: runners, makeConsumer)
                            try await Task.sleep(for: settings.tick)
                        }
                    }
                }
                // The first to end (shutdown, or a lost connection) ends the worker.
                try await group.next()
                group.cancelAll()
            }
        } catch is CancellationError {
        } catch {
            await stop(runners, leases: leases, nats: nats)
            throw error
        }
        await stop(runners, leases: leases, nats: nats)
    }

    /// Takes free partitions up to `share` and stops consumers beyond it. A partition's lock
    /// is released only after its consumer has stopped: two workers never run one partition.
    private func rebalance(
        share: Int, leases: AdvisoryLeases<Int>, runners: PartitionRunners, _ consumer: (Int) -> PartitionConsumer
    ) async throws {
        let owned = await leases.owned
        if owned.count > share {
            for partition in owned.sorted().suffix(owned.count - share) {
                await runners.stop(partition)
                try await leases.release(partition)
                logger.notice("partition given back", metadata: ["partition": "\(partition)"])
            }
            return
        }
        var missing = share - owned.count
        // Start looking at a place of this worker's own, so workers starting together try
        // different partitions first.
        let offset = FleetSubjects.partition(of: settings.name, among: partitions)
        for step in 0..<partitions where missing > 0 {
            let partition = (offset + step) % partitions
            guard !owned.contains(partition), try await leases.tryAcquire(partition) else { continue }
            missing -= 1
            await runners.start(consumer(partition))
            logger.notice("partition taken", metadata: ["partition": "\(partition)"])
        }
    }

    private func stop(_ runners: PartitionRunners, leases: AdvisoryLeases<Int>, nats: NATSConnection) async {
        await runners.stopAll()
        try? await database.leave(name: settings.name)
        await leases.close()
        await nats.close()
        logger.notice("worker stopped", metadata: ["name": "\(settings.name)"])
    }
}
