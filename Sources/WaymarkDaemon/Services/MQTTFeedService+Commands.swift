import Logging
import WaymarkCore
import WaymarkDelivery
import WaymarkSources
import WaymarkSteering

extension MQTTFeedService {
    /// The publisher of phones' commands: its own client on the same broker (the subscriber's
    /// client ID is fixed for its persistent session, and one ID cannot be connected twice).
    func commandPublisher() -> MQTTPublisher {
        MQTTPublisher(
            settings: .init(
                host: settings.host, port: settings.port, clientID: settings.clientID + "-commands", username: settings.username,
                password: settings.password),
            logger: logger)
    }

    /// OwnTracks' command topic of the phone that published on `topic`: `BASE/USER/DEVICE/cmd`,
    /// which the apps subscribe to when remote commands are on (booklet, "JSON", Topics).
    static func commandTopic(base: String, user: String, device: String) -> String {
        "\(base)/\(user)/\(device)/cmd"
    }

    /// Publishes the commands the phone is owed after `messages` as one JSON array (the body an
    /// HTTP reply carries), at QoS 1 so a phone that is briefly offline gets it when it
    /// reconnects, not retained (a command is for now, not for whoever subscribes later).
    func send(to topic: OwnTracksTopic, after messages: [OwnTracksMessage], publisher: MQTTPublisher) async {
        let owed = fleet.steer(topic.device, after: PhoneReport.latest(in: messages))
        guard !owed.isEmpty else { return }
        let command = Self.commandTopic(base: settings.baseTopic, user: topic.user, device: topic.device)
        let payload = Array(OwnTracksReply.array(owed).utf8)
        network?.transfer(MQTTSender.publishBytes(topic: command, payload: payload.count), by: NetworkMeter.listener)
        switch await publisher.publish(topic: command, payload: payload, retain: false) {
        case .success:
            logger.debug("Sent a phone its commands", metadata: ["device": "\(topic.device)", "mqtt.topic": "\(command)", "commands": "\(owed.count)"])
        case .failure(let error):
            logger.warning("Cannot send a phone its commands", metadata: ["device": "\(topic.device)", "mqtt.topic": "\(command)", "error": "\(error)"])
        }
    }
}
