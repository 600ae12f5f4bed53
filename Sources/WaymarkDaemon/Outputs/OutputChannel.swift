import AsyncHTTPClient
import Foundation
import WaymarkOutputs

/// How one output's deliveries reach its receiver, whatever its kind and format: the workers
/// (`OutputWorker`, `LocationWorker`) decide what and when, a channel only how.
struct OutputChannel: Sendable {
    /// Sends one event; the CloudEvent's JSON comes with it (formats that publish something
    /// else build their own message from the event).
    let sendEvent: @Sendable (_ cloudEvent: String, _ event: OutputEvent) async -> DeliveryOutcome
    /// Publishes one position; nil for formats that publish none.
    var publishLocation: (@Sendable (OutputFix) async -> DeliveryOutcome)?
    /// Runs before the workers start (Home Assistant's discovery of the regions).
    var prepare: @Sendable () async -> Void = {}
    /// Releases what the channel holds (an MQTT client) once the workers have stopped.
    var close: @Sendable () -> Void = {}

    /// A webhook: each event's CloudEvent POSTed, signed, through the shared client; its bytes
    /// counted for the network radio.
    static func webhook(_ output: Output, url: String, sender: WebhookSender, network: NetworkMeter? = nil) -> OutputChannel {
        let party = NetworkMeter.party(ofOutput: output.name)
        return OutputChannel(sendEvent: { body, _ in
            await sender.send(
                body, to: url, secret: output.secret, at: Int64(Date().timeIntervalSince1970.rounded(.down)),
                traffic: { network?.transfer($0, by: party) })
        })
    }
}
