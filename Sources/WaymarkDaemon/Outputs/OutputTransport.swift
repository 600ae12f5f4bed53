import AsyncHTTPClient
import Logging
import NIOPosix
import WaymarkOutputs

/// Delivery for callers that keep their own cursor and dead letters (the fleet's output nodes,
/// docs/fleet.md): the single daemon's webhook and MQTT channels, its retry and backoff, and
/// none of its store. One shared HTTP client for every webhook; `shutdown()` once done.
public final class OutputTransport: Sendable {
    /// How one event's delivery ended.
    public enum Result: Sendable, Equatable {
        case delivered
        /// Failing for the output's keep time: the last failure.
        case gaveUp(String)
        /// The receiver said 410: the output stops.
        case gone(String)
        case cancelled
    }

    /// Why an output cannot be delivered here.
    public struct Refusal: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    private let client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton)
    private let activity = OutputActivity()
    private let source: String
    private let logger: Logger

    /// `source` is the CloudEvents `source` (`urn:waymark:` + the host's name).
    public init(source: String = "urn:waymark:" + OutputService.hostName(), logger: Logger) {
        self.source = source
        self.logger = logger
    }

    /// One output's channel, started (an MQTT output's client connects in the background).
    /// CloudEvents only: OwnTracks' and Home Assistant's formats look up fixes, users and
    /// presence in the single daemon's store.
    public func delivery(for output: Output) throws -> OutputDelivery {
        guard output.format == .cloudEvents else {
            throw Refusal(description: "the \(output.format.rawValue) format is delivered by the single daemon only; fleet outputs send CloudEvents")
        }
        let retry = DeliveryRetry(output: output.name, keep: .seconds(output.keepSeconds), activity: activity, logger: logger)
        switch output.kind {
        case .webhook(let url):
            let channel = OutputChannel.webhook(output, url: url, sender: WebhookSender(client: client))
            return OutputDelivery(channel: channel, retry: retry, source: source)
        case .mqtt(let url):
            let target: MQTTTarget
            switch MQTTTarget.parse(url) {
            case .success(let parsed): target = parsed
            case .failure(let error): throw Refusal(description: "\(url): \(error)")
            }
            let sender: MQTTSender
            do {
                sender = try MQTTSender.start(output, target: target, logger: logger)
            } catch {
                throw Refusal(description: "\(url): \(error)")
            }
            var channel = OutputChannel(sendEvent: { body, event in await sender.send(body, topic: target.topic(for: event)) })
            channel.close = { sender.publisher.stop() }
            return OutputDelivery(channel: channel, retry: retry, source: source)
        }
    }

    public func shutdown() async throws {
        try await client.shutdown()
    }
}

/// One output's events, each sent as a CloudEvent and retried until the receiver takes it, the
/// output's keep time passes, it says 410 or the task is cancelled.
public struct OutputDelivery: Sendable {
    let channel: OutputChannel
    let retry: DeliveryRetry
    let source: String

    public func deliver(_ event: OutputEvent) async -> OutputTransport.Result {
        let body = CloudEvent.json(event, source: source)
        switch await retry.run({ await channel.sendEvent(body, event) }) {
        case .delivered: return .delivered
        case .gaveUp(let reason): return .gaveUp(reason)
        case .gone(let reason): return .gone(reason)
        case .cancelled: return .cancelled
        }
    }

    /// Releases what the channel holds (an MQTT client).
    public func close() { channel.close() }
}
