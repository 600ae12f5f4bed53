import AsyncHTTPClient
import Foundation
import WaymarkOutputs

/// How one output's deliveries reach its receiver, whatever its kind and format: the runners
/// (`DeliveryRunner`, `PositionRunner`) decide what and when, a channel only how.
public struct OutputChannel: Sendable {
    /// Sends one event; the CloudEvent's JSON comes with it (formats that publish something
    /// else build their own message from the event).
    public let sendEvent: @Sendable (_ cloudEvent: String, _ event: OutputEvent) async -> DeliveryOutcome
    /// Publishes one position; nil for formats that publish none.
    public var publishLocation: (@Sendable (OutputFix) async -> DeliveryOutcome)?
    /// Runs before the runners start (Home Assistant's discovery of the regions).
    public var prepare: @Sendable () async -> Void = {}
    /// Releases what the channel holds (an MQTT client) once the runners have stopped.
    public var close: @Sendable () -> Void = {}

    public init(
        sendEvent: @escaping @Sendable (_ cloudEvent: String, _ event: OutputEvent) async -> DeliveryOutcome,
        publishLocation: (@Sendable (OutputFix) async -> DeliveryOutcome)? = nil, prepare: @escaping @Sendable () async -> Void = {}
    ) {
        self.sendEvent = sendEvent
        self.publishLocation = publishLocation
        self.prepare = prepare
    }

    /// A webhook: each event's CloudEvent POSTed, signed, through the shared client; its bytes
    /// counted for the network radio.
    static func webhook(_ output: Output, url: String, sender: WebhookSender, network: (any TrafficMeter)? = nil) -> OutputChannel {
        let party = OutputTraffic.party(ofOutput: output.name)
        return OutputChannel(sendEvent: { body, _ in
            await sender.send(
                body, to: url, secret: output.secret, at: Int64(Date().timeIntervalSince1970.rounded(.down)),
                traffic: { network?.transfer($0, by: party) })
        })
    }
}
