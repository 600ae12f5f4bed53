import Logging
import ServiceLifecycle
import WaymarkDelivery
import WaymarkOutputs
import WaymarkStore

/// Runs one `DeliveryRunner` per output over the history (`StoreOutputCursor`), and a
/// `PositionRunner` for the formats that publish positions (docs/outputs.md), each woken by the
/// feed when events or fixes are committed. `reload()` restarts them from the store (an output added, removed or changed
/// through the API); a runner stopped mid-retry loses nothing, its cursor is in the store.
public final class OutputService: Service, Sendable {
    let store: WaymarkStore
    let feed: LiveFeed
    /// The devices, for OwnTracks topics (`owntracks/USER/DEVICE`): the listener's cache.
    let directory: DeviceDirectory
    let activity = OutputActivity()
    /// Deliveries' traffic, for the network radio's energy (nil: not counted).
    let network: NetworkMeter?
    let logger: Logger
    /// The CloudEvents `source`: `urn:waymark:` + the host's name (`origin`).
    let source: String
    private let reloads: AsyncStream<Void>
    private let reloadContinuation: AsyncStream<Void>.Continuation

    init(
        store: WaymarkStore, feed: LiveFeed, directory: DeviceDirectory, network: NetworkMeter? = nil, logger: Logger,
        host: String = OutputOrigin.hostName()
    ) {
        self.store = store
        self.network = network
        self.feed = feed
        self.directory = directory
        self.logger = logger
        source = OutputOrigin.source(host: host)
        (reloads, reloadContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    func reload() { reloadContinuation.yield() }

    /// What this daemon's outputs call themselves: `urn:waymark:` + the host's name.
    static func origin() -> String { OutputOrigin.source() }

    public func run() async throws {
        let transport = OutputTransport(source: source, activity: activity, network: network, logger: logger)
        await cancelWhenGracefulShutdown {
            var workers = await self.start(transport: transport)
            for await _ in self.reloads {
                for worker in workers { worker.cancel() }
                for worker in workers { await worker.value }
                workers = await self.start(transport: transport)
            }
            for worker in workers { worker.cancel() }
            for worker in workers { await worker.value }
        }
        try await transport.shutdown()
    }

    /// A task per output in the store (none when it cannot be read: logged): its channel
    /// prepared, then its events' runner and, for formats that publish positions, its
    /// positions' runner, side by side; the channel closed when both have stopped.
    private func start(transport: OutputTransport) async -> [Task<Void, Never>] {
        let outputs: [Output]
        do {
            outputs = try await store.offPool { try $0.outputs() }
        } catch {
            logger.error("Cannot read the outputs", metadata: ["error": "\(error)"])
            return []
        }
        let lookups = StoreOutputLookups(store: store, directory: directory, logger: logger)
        return outputs.compactMap { output in
            let channel: OutputChannel
            do {
                channel = try transport.channel(for: output, lookups: lookups)
            } catch {
                logger.error("Cannot start an output", metadata: ["output": "\(output.name)", "error": "\(error)"])
                return nil
            }
            let events = DeliveryRunner<StoreOutputCursor>(output: output, channel: channel, source: source, activity: activity, logger: logger)
            let eventCursor = StoreOutputCursor(output: output, store: store, wakes: feed.watch(.events), logger: logger)
            let positions = channel.publishLocation.map {
                (PositionRunner<StorePositionCursor>(output: output, publish: $0, activity: activity, logger: logger),
                 StorePositionCursor(output: output, store: store, wakes: feed.watch(.fixes), logger: logger))
            }
            return Task {
                await channel.prepare()
                await withDiscardingTaskGroup { group in
                    group.addTask { await events.run(eventCursor) }
                    if case let (runner, cursor)? = positions { group.addTask { await runner.run(cursor) } }
                }
                channel.close()
            }
        }
    }
}
