import AsyncHTTPClient
import Logging
import WaymarkOutputs

/// The one factory of output channels (docs/outputs.md), for the single daemon and the fleet's
/// output nodes: a webhook, or MQTT in every format, each started. One shared HTTP client for
/// every webhook; `shutdown()` once the channels are closed. The caller's `OutputLookups` answer
/// what the OwnTracks and Home Assistant formats look up.
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
    public let activity: OutputActivity
    /// The CloudEvents `source` (`urn:waymark:` + the host's name).
    public let source: String
    private let network: (any TrafficMeter)?
    private let logger: Logger

    /// `network` counts the channels' traffic (nil: not counted).
    public init(
        source: String = OutputOrigin.source(), activity: OutputActivity = OutputActivity(), network: (any TrafficMeter)? = nil,
        logger: Logger
    ) {
        self.source = source
        self.activity = activity
        self.network = network
        self.logger = logger
    }

    /// One output's channel, started (an MQTT output's client connects in the background).
    public func channel(for output: Output, lookups: any OutputLookups) throws(Refusal) -> OutputChannel {
        switch output.kind {
        case .webhook(let url):
            return .webhook(output, url: url, sender: WebhookSender(client: client), network: network)
        case .mqtt(let url):
            let target: MQTTTarget
            switch MQTTTarget.parse(url) {
            case .success(let parsed): target = parsed
            case .failure(let error): throw Refusal(description: "\(URLRedaction.redacted(url)): \(error)")
            }
            let context = OutputContext(lookups: lookups, activity: activity, source: source, network: network, logger: logger)
            do {
                return try .mqtt(output, target: target, context: context)
            } catch {
                throw Refusal(description: "\(URLRedaction.redacted(url)): \(error)")
            }
        }
    }

    /// One output's channel with its retry: what the fleet's output nodes deliver through.
    public func delivery(for output: Output, lookups: any OutputLookups) throws(Refusal) -> OutputDelivery {
        let retry = DeliveryRetry(output: output.name, keep: .seconds(output.keepSeconds), activity: activity, logger: logger)
        return OutputDelivery(channel: try channel(for: output, lookups: lookups), retry: retry, source: source)
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
