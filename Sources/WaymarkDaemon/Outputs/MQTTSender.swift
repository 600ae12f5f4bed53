import Logging
import WaymarkOutputs
import WaymarkSources

/// Publishes an MQTT output's messages at QoS 1 (docs/outputs.md); delivered once the broker
/// acknowledges.
struct MQTTSender: Sendable {
    let publisher: MQTTPublisher
    let target: MQTTTarget

    /// A publisher for the output, started: a client id of its own (`waymark-` and the name, cut
    /// to the 23 characters MQTT 3.1.1 guarantees).
    static func start(_ output: Output, target: MQTTTarget, logger: Logger) throws(MQTTError) -> MQTTSender {
        let settings = MQTTPublisher.Settings(
            host: target.host, port: target.port, clientID: String(("waymark-" + output.name).prefix(23)),
            username: target.username, password: target.password)
        let publisher = MQTTPublisher(settings: settings, logger: logger)
        try publisher.start()
        return MQTTSender(publisher: publisher, target: target)
    }

    func send(_ body: String, topic: String, retain: Bool = false) async -> DeliveryOutcome {
        switch await publisher.publish(topic: topic, payload: Array(body.utf8), retain: retain) {
        case .success: .delivered
        case .failure(let error): .failed(error.description)
        }
    }
}
