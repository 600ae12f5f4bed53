import Logging
import WaymarkOutputs
import WaymarkSources

/// Publishes an MQTT output's messages at QoS 1 (docs/outputs.md); delivered once the broker
/// acknowledges.
public struct MQTTSender: Sendable {
    let publisher: MQTTPublisher
    let target: MQTTTarget
    /// Hears each acknowledged message's bytes (PUBLISH at QoS 1 and its PUBACK).
    let traffic: @Sendable (Int) -> Void

    /// A publisher for the output, started: a client id of its own (`waymark-` and the name, cut
    /// to the 23 characters MQTT 3.1.1 guarantees).
    static func start(
        _ output: Output, target: MQTTTarget, traffic: @escaping @Sendable (Int) -> Void = { _ in }, logger: Logger
    ) throws(MQTTError) -> MQTTSender {
        let settings = MQTTPublisher.Settings(
            host: target.host, port: target.port, clientID: String(("waymark-" + output.name).prefix(23)),
            username: target.username, password: target.password)
        let publisher = MQTTPublisher(settings: settings, logger: logger)
        try publisher.start()
        return MQTTSender(publisher: publisher, target: target, traffic: traffic)
    }

    func send(_ body: String, topic: String, retain: Bool = false) async -> DeliveryOutcome {
        let payload = Array(body.utf8)
        switch await publisher.publish(topic: topic, payload: payload, retain: retain) {
        case .success:
            traffic(Self.publishBytes(topic: topic, payload: payload.count))
            return .delivered
        case .failure(let error):
            return .failed(error.description)
        }
    }

    /// A QoS 1 PUBLISH (fixed header, topic, packet id, payload) and its 4-byte PUBACK.
    public static func publishBytes(topic: String, payload: Int) -> Int {
        let remaining = 2 + topic.utf8.count + 2 + payload
        let lengthBytes = remaining < 128 ? 1 : remaining < 16_384 ? 2 : remaining < 2_097_152 ? 3 : 4
        return 1 + lengthBytes + remaining + 4
    }
}
