import AsyncHTTPClient
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Logging
import NIOPosix
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
    let logger: Logger
    /// The CloudEvents `source`: `urn:waymark:` + the host's name.
    let source: String
    private let reloads: AsyncStream<Void>
    private let reloadContinuation: AsyncStream<Void>.Continuation

    init(store: WaymarkStore, feed: LiveFeed, directory: DeviceDirectory, logger: Logger, host: String = OutputService.hostName()) {
        self.store = store
        self.feed = feed
        self.directory = directory
        self.logger = logger
        source = "urn:waymark:" + host
        (reloads, reloadContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    func reload() { reloadContinuation.yield() }

    /// The machine's name (gethostname: no resolver involved), `localhost` if it has none.
    public static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "localhost" : name
    }

    public func run() async throws {
        let client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton)
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

    /// A task per output in the store (none when it cannot be read: logged). An MQTT output's
    /// publisher lives as long as its task.
    private func start(sender: WebhookSender) async -> [Task<Void, Never>] {
        let outputs: [Output]
        do {
            outputs = try await store.offPool { try $0.outputs() }
        } catch {
            logger.error("Cannot read the outputs", metadata: ["error": "\(error)"])
            return []
        }
        return outputs.compactMap { output in
            let wakes = feed.watchEvents()
            let make = { (send: @escaping @Sendable (String, OutputEvent) async -> DeliveryOutcome) in
                OutputWorker(output: output, store: self.store, send: send, source: self.source, activity: self.activity, logger: self.logger)
            }
            switch output.kind {
            case .webhook(let url):
                let worker = make { body, _ in
                    await sender.send(body, to: url, secret: output.secret, at: Int64(Date().timeIntervalSince1970.rounded(.down)))
                }
                return Task { await worker.run(wakes: wakes) }
            case .mqtt(let url):
                guard case .success(let target) = MQTTTarget.parse(url) else {
                    logger.error("An MQTT output's URL cannot be used", metadata: ["output": "\(output.name)"])
                    return nil
                }
                let mqtt: MQTTSender
                do {
                    mqtt = try MQTTSender.start(output, target: target, logger: logger)
                } catch {
                    logger.error("Cannot start an MQTT output", metadata: ["output": "\(output.name)", "error": "\(error)"])
                    return nil
                }
                let worker: OutputWorker
                switch output.format {
                case .cloudEvents:
                    worker = make { body, event in await mqtt.send(body, topic: target.topic(for: event)) }
                case .ownTracks:
                    worker = make { [directory] _, event in
                        // A device the store does not know is its own user, as `devices add` defaults it.
                        let user = ((try? await directory.device(named: event.device)) ?? nil)?.user ?? event.device
                        // Kinds OwnTracks has no message for are passed over, as delivered.
                        guard let message = OwnTracksFormat.message(for: event, user: user, base: target.topic) else { return .delivered }
                        return await mqtt.send(message.payload, topic: message.topic)
                    }
                }
                return Task {
                    await worker.run(wakes: wakes)
                    mqtt.publisher.stop()
                }
            }
        }
    }
}
