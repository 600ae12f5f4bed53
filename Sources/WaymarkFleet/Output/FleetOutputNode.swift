import Foundation
import Logging
import ServiceLifecycle
import WaymarkDelivery
import WaymarkNATS
import WaymarkOutputs

/// An output node (docs/fleet.md): delivers a fair share of the fleet's outputs from the events
/// stream the workers publish. Every second it says it is alive, reads the outputs, counts the
/// live output nodes, takes free outputs up to its share and gives back any beyond it; an
/// output's lock is a PostgreSQL advisory lock, so one node delivers it at a time and another
/// takes it over when that node dies.
public struct FleetOutputNode: Service {
    public typealias Settings = ConsumerNodeSettings

    let settings: Settings
    let database: FleetDatabase
    let logger: Logger

    public init(settings: Settings, database: FleetDatabase, logger: Logger) {
        self.settings = settings
        self.database = database
        self.logger = logger
    }

    public func run() async throws {
        let bus = try await FleetBus.connect(url: settings.natsURL, node: settings.name, logger: logger)
        let leases = try await AdvisoryLeases<String>.connect(
            database.address, node: settings.name, lockClass: FleetSchema.outputLockClass,
            lockKey: { Int32(bitPattern: StableHash.fnv1a($0)) }, logger: logger)
        let transport = OutputTransport(logger: logger)
        let runners = OutputRunners()
        let lookups = FleetOutputLookups(database: database)
        let started = Date()
        logger.notice("output node started", metadata: ["name": "\(settings.name)"])
        do {
            try await cancelWhenGracefulShutdown {
                while !Task.isCancelled {
                    try await database.heartbeat(
                        name: settings.name, role: FleetRole.output.rawValue, startedAt: started, regionsVersion: 0,
                        outputs: await runners.names)
                    try await leases.check()
                    try bus.check()
                    let outputs = try await database.outputs().filter { $0.disabled == nil }
                    let live = max(1, try await database.liveNodes(role: FleetRole.output.rawValue))
                    try await rebalance(
                        outputs, share: (outputs.count + live - 1) / live, leases: leases, runners: runners, bus: bus, transport: transport,
                        lookups: lookups)
                    try await Task.sleep(for: settings.tick)
                }
            }
        } catch is CancellationError {
        } catch {
            await stop(runners, leases: leases, bus: bus, transport: transport)
            throw error
        }
        await stop(runners, leases: leases, bus: bus, transport: transport)
    }

    /// Stops runners of outputs gone, stopped, changed or beyond the share, then takes free
    /// outputs up to it. An output's lock is released only after its runners have stopped.
    private func rebalance(
        _ outputs: [Output], share: Int, leases: AdvisoryLeases<String>, runners: OutputRunners, bus: FleetBus,
        transport: OutputTransport, lookups: any OutputLookups
    ) async throws {
        let wanted = Dictionary(uniqueKeysWithValues: outputs.map { ($0.name, $0) })
        var owned = await leases.owned
        for name in owned.sorted() {
            let running = await runners.output(named: name)
            let ended = await runners.hasEnded(name)
            guard running == nil || running != wanted[name] || ended else { continue }
            await runners.stop(name)
            try await leases.release(name)
            owned.remove(name)
            if running != nil, wanted[name] != nil, running != wanted[name] {
                logger.notice("output changed; restarting it", metadata: ["output": "\(name)"])
            }
        }
        if owned.count > share {
            for name in owned.sorted().suffix(owned.count - share) {
                await runners.stop(name)
                try await leases.release(name)
                logger.notice("output given back", metadata: ["output": "\(name)"])
            }
            return
        }
        var missing = share - owned.count
        // Start looking at a place of this node's own, so nodes starting together try different outputs first.
        let offset = outputs.isEmpty ? 0 : Int(StableHash.fnv1a(settings.name) % UInt32(outputs.count))
        for step in 0..<outputs.count where missing > 0 {
            let output = outputs[(offset + step) % outputs.count]
            guard !owned.contains(output.name), try await leases.tryAcquire(output.name) else { continue }
            let channel: OutputChannel
            do {
                channel = try transport.channel(for: output, lookups: lookups)
            } catch {
                try await leases.release(output.name)
                logger.error("cannot deliver an output", metadata: ["output": "\(output.name)", "error": "\(error)"])
                continue
            }
            missing -= 1
            await start(output, channel: channel, runners: runners, bus: bus, transport: transport)
            logger.notice("output taken", metadata: ["output": "\(output.name)"])
        }
    }

    /// The output's events from its consumer of the events stream and, for the formats that
    /// publish them, its positions from its consumer of the fix stream.
    private func start(_ output: Output, channel: OutputChannel, runners: OutputRunners, bus: FleetBus, transport: OutputTransport) async {
        let stop = StopSignal()
        let events = DeliveryRunner<JetStreamOutputCursor>(
            output: output, channel: channel, source: transport.source, activity: transport.activity, logger: logger)
        let eventCursor = JetStreamOutputCursor(
            output: output, jetStream: bus.jetStream, database: database, settings: settings, stop: stop, logger: logger)
        let positions = channel.publishLocation.map { publish in
            let runner = PositionRunner<JetStreamPositionCursor>(output: output, publish: publish, activity: transport.activity, logger: logger)
            let cursor = JetStreamPositionCursor(output: output, jetStream: bus.jetStream, settings: settings, stop: stop, logger: logger)
            return { @Sendable in await runner.run(cursor) }
        }
        await runners.start(output, channel: channel, stop: stop, events: { await events.run(eventCursor) }, positions: positions)
    }

    private func stop(_ runners: OutputRunners, leases: AdvisoryLeases<String>, bus: FleetBus, transport: OutputTransport) async {
        await runners.stopAll()
        try? await database.leave(name: settings.name)
        await leases.close()
        await bus.connection.close()
        try? await transport.shutdown()
        logger.notice("output node stopped", metadata: ["name": "\(settings.name)"])
    }
}
