import AsyncHTTPClient
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Logging
import ServiceLifecycle
import WaymarkOutputs
import WaymarkSources
import WaymarkStore

/// Runs one `OutputWorker` per output (docs/outputs.md), each woken by the feed when events are
/// committed. `reload()` restarts them from the store (an output added, removed or changed
/// through the API); a worker stopped mid-retry loses nothing, its cursor is in the store.
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
        host: String = OutputService.hostName()
    ) {
        self.store = store
        self.network = network
        self.feed = feed
        self.directory = directory
        self.logger = logger
        source = Self.origin(host: host)
        (reloads, reloadContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    func reload() { reloadContinuation.yield() }

    /// What this daemon's outputs call themselves: `urn:waymark:` + the host's name.
    static func origin(host: String = hostName()) -> String { "urn:waymark:" + host }

    /// The machine's name (gethostname: no resolver involved), `localhost` if it has none.
    public static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "localhost" : name
    }

    public func run() async throws {
        let client = WebhookSender.makeClient()
        let sender = WebhookSender(client: client)
        await cancelWhenGracefulShutdown {
            var workers = await self.start(sender: sender)
            for await _ in self.reloads {
                for worker in workers { worker.cancel() }
                for worker in workers { await worker.value }
                workers = await self.start(sender: sender)
            }
            for worker in workers { worker.cancel() }
            for worker in workers { await worker.value }
        }
        try await client.shutdown()
    }

    /// A task per output in the store (none when it cannot be read: logged): its channel
    /// prepared, then its event worker and, for formats that publish positions, its location
    /// worker, side by side; the channel closed when both have stopped.
    private func start(sender: WebhookSender) async -> [Task<Void, Never>] {
        let outputs: [Output]
        do {
            outputs = try await store.offPool { try $0.outputs() }
        } catch {
            logger.error("Cannot read the outputs", metadata: ["error": "\(error)"])
            return []
        }
        let context = OutputContext(
            lookups: StoreOutputLookups(store: store, directory: directory, logger: logger), activity: activity, source: source,
            network: network, logger: logger)
        return outputs.compactMap { output in
            guard let channel = channel(for: output, sender: sender, context: context) else { return nil }
            let events = OutputWorker(output: output, store: store, send: channel.sendEvent, source: source, activity: activity, logger: logger)
            let locations = channel.publishLocation.map {
                LocationWorker(output: output, store: store, publish: $0, activity: activity, logger: logger)
            }
            let (eventWakes, fixWakes) = (feed.watch(.events), feed.watch(.fixes))
            return Task {
                await channel.prepare()
                await withDiscardingTaskGroup { group in
                    group.addTask { await events.run(wakes: eventWakes) }
                    if let locations { group.addTask { await locations.run(wakes: fixWakes) } }
                }
                channel.close()
            }
        }
    }

    private func channel(for output: Output, sender: WebhookSender, context: OutputContext) -> OutputChannel? {
        switch output.kind {
        case .webhook(let url):
            return .webhook(output, url: url, sender: sender, network: network)
        case .mqtt(let url):
            guard case .success(let target) = MQTTTarget.parse(url) else {
                logger.error("An MQTT output's URL cannot be used", metadata: ["output": "\(output.name)"])
                return nil
            }
            do {
                return try .mqtt(output, target: target, context: context)
            } catch {
                logger.error("Cannot start an MQTT output", metadata: ["output": "\(output.name)", "error": "\(error)"])
                return nil
            }
        }
    }
}
