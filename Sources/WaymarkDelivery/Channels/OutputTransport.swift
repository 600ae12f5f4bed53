import AsyncHTTPClient
import Logging
import WaymarkOutputs

/// The one factory of output channels (docs/outputs.md), for the single daemon and the fleet's
/// output nodes: a webhook, or MQTT in every format, each started. One shared HTTP client for
/// every webhook; `shutdown()` once the channels are closed. The caller's `OutputLookups` answer
/// what the OwnTracks and Home Assistant formats look up.
public final class OutputTransport: Sendable {
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

    public func shutdown() async throws {
        try await client.shutdown()
    }
}
