import AsyncHTTPClient
import Logging
import WaymarkOutputs

/// Delivery for callers that keep their own cursor and dead letters (the fleet's output nodes,
/// docs/fleet.md): the single daemon's webhook and MQTT channels in every format, its retry and
/// backoff, and none of its store (the caller's `OutputLookups` instead). One shared HTTP client
/// for every webhook; `shutdown()` once done.
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

    private let client = WebhookSender.makeClient()
    private let activity = OutputActivity()
    private let source: String
    private let logger: Logger

    /// `source` is the CloudEvents `source` (`urn:waymark:` + the host's name).
    public init(source: String = "urn:waymark:" + OutputService.hostName(), logger: Logger) {
        self.source = source
        self.logger = logger
    }

    /// One output's channel, started (an MQTT output's client connects in the background).
    /// `lookups` answers what the OwnTracks and Home Assistant formats look up.
    public func delivery(for output: Output, lookups: any OutputLookups) throws -> OutputDelivery {
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
            let context = OutputContext(lookups: lookups, activity: activity, source: source, logger: logger)
            do {
                return OutputDelivery(channel: try .mqtt(output, target: target, context: context), retry: retry, source: source)
            } catch {
                throw Refusal(description: "\(url): \(error)")
            }
        }
    }

    public func shutdown() async throws {
        try await client.shutdown()
    }
}

/// One output's events (a CloudEvent, or the format's own messages) and, for the formats that
/// publish them, positions; each retried until the receiver takes it, the output's keep time
/// passes, it says 410 or the task is cancelled.
public struct OutputDelivery: Sendable {
    let channel: OutputChannel
    let retry: DeliveryRetry
    let source: String

    /// Whether the output also publishes the devices' fixes as positions (`publish(_:)`).
    public var publishesLocations: Bool { channel.publishLocation != nil }

    /// What the channel does before the first delivery (Home Assistant's discovery of the regions).
    public func prepare() async { await channel.prepare() }

    public func deliver(_ event: OutputEvent) async -> OutputTransport.Result {
        let body = CloudEvent.json(event, source: source)
        return Self.result(await retry.run({ await channel.sendEvent(body, event) }))
    }

    /// Publishes one position; `.delivered` at once for formats that publish none.
    public func publish(_ fix: OutputFix) async -> OutputTransport.Result {
        guard let publish = channel.publishLocation else { return .delivered }
        return Self.result(await retry.run({ await publish(fix) }))
    }

    private static func result(_ result: DeliveryRetry.Result) -> OutputTransport.Result {
        switch result {
        case .delivered: .delivered
        case .gaveUp(let reason): .gaveUp(reason)
        case .gone(let reason): .gone(reason)
        case .cancelled: .cancelled
        }
    }

    /// Releases what the channel holds (an MQTT client).
    public func close() { channel.close() }
}
