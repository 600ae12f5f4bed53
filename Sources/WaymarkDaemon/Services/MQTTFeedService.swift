import Logging
import ServiceLifecycle
import WaymarkCore
import WaymarkDelivery
import WaymarkDevices
import WaymarkOutputs
import WaymarkSources

/// OwnTracks' MQTT mode (docs/devices.md): the daemon subscribes to `BASE/+/+` and its
/// `event`, `waypoint`, `waypoints`, `beacon` and `info` (cards) subtopics on the configured
/// broker, and each message goes to the pipeline of the device its topic names. The broker authenticates the phones; Waymark
/// takes a message only for a device it knows whose user is the topic's user, and counts the
/// others by reason (`mqtt.unknown-device`, `forbidden`, `owntracks.…`). Messages this daemon's
/// own OwnTracks outputs published (`OwnTracksFormat.isOwn`) are passed over and counted as
/// `mqtt.own-output`: taking them would record every position again, and publish it again.
/// A payload over 64 KiB (the device listener's default body limit) is refused unread, counted
/// as `mqtt.too-large` and logged with its topic and size; a retained message taken before is
/// passed over (`RetainedMessages`), counted as `mqtt.retained-again`. After a device's
/// location is handed to its pipeline, the commands its phone is owed (`DeviceFleet.steer`:
/// its mode, its region window) are published on its `cmd` topic (`MQTTFeedService+Commands`).
struct MQTTFeedService: Service {
    let settings: MQTTSettings
    /// This daemon's outputs' origin (`OutputService.origin`).
    let origin: String
    let directory: DeviceDirectory
    let fleet: DeviceFleet
    /// The subscription's session and messages are the listener's traffic for the radio.
    var network: NetworkMeter? = nil
    /// Prices each phone's publishes (docs/semantics.md §4.4).
    var phoneEnergy: PhoneEnergyMeter? = nil
    let logger: Logger

    static func topics(base: String) -> [String] {
        [base + "/+/+"] + ["event", "waypoint", "waypoints", "beacon", "info"].map { base + "/+/+/" + $0 }
    }

    func run() async throws {
        let subscriber = MQTTSubscriber(
            settings: .init(
                host: settings.host, port: settings.port, clientID: settings.clientID, username: settings.username,
                password: settings.password, topics: Self.topics(base: settings.baseTopic)),
            logger: logger)
        try subscriber.start()
        let commands = commandPublisher()
        try commands.start()
        defer { commands.stop() }
        network?.opened(by: NetworkMeter.listener, keepalive: Double(subscriber.settings.keepAlive))
        defer { network?.closed(by: NetworkMeter.listener) }
        await withGracefulShutdownHandler {
            var retained = RetainedMessages()
            for await message in subscriber.messages {
                network?.transfer(MQTTSender.publishBytes(topic: message.topic, payload: message.size), by: NetworkMeter.listener)
                await handle(message, retained: &retained, commands: commands)
            }
        } onGracefulShutdown: {
            subscriber.stop()
        }
    }

    func handle(_ message: MQTTSubscriber.Message, retained: inout RetainedMessages, commands: MQTTPublisher? = nil) async {
        guard let topic = OwnTracksTopic(message.topic, base: settings.baseTopic) else {
            return await fleet.countRefusal("mqtt.unknown-topic", device: nil)
        }
        let known: Device?
        do {
            known = try await directory.device(named: topic.device)
        } catch {
            logger.error("Cannot read the devices", metadata: ["error": "\(error)"])
            return
        }
        guard !message.isOversized else {
            logger.warning(
                "Refused an MQTT message over the size limit",
                metadata: ["mqtt.topic": "\(message.topic)", "bytes": "\(message.size)", "limit": "\(MQTTSubscriber.Settings.defaultMaximumPayload)"])
            return await fleet.countRefusal("mqtt.too-large", device: known?.name)
        }
        guard let device = known else { return await fleet.countRefusal("mqtt.unknown-device", device: nil) }
        guard topic.user == device.user || topic.user == device.name else {
            return await fleet.countRefusal("forbidden", device: device.name)
        }
        if message.retained, retained.tookAlready(message.payload, on: message.topic) {
            return await fleet.countRefusal("mqtt.retained-again", device: device.name)
        }
        guard !OwnTracksFormat.isOwn(message.payload, origin: origin) else {
            return await fleet.countRefusal("mqtt.own-output", device: device.name)
        }
        let messages: [OwnTracksMessage]
        do {
            messages = try OwnTracksDecoder.decode(message.payload)
        } catch {
            logger.info("Refused an MQTT message", metadata: ["device": "\(device.name)", "error": "\(error)"])
            return await fleet.countRefusal("owntracks.\(error.code.rawValue)", device: device.name)
        }
        // A message may name a topic in its body too: like every message of an HTTP batch, it
        // must name the device and user the broker let publish here.
        let named = messages.compactMap(\.topic).compactMap { OwnTracksTopic($0, base: settings.baseTopic) }
        if let other = named.first(where: { $0.device != device.name || $0.user != topic.user }) {
            logger.info(
                "Refused an MQTT message naming another device", metadata: ["mqtt.topic": "\(message.topic)", "named": "\(other.user)/\(other.device)"])
            return await fleet.countRefusal("forbidden", device: device.name)
        }
        let received = fleet.clock.now
        var events = messages.flatMap { $0.sourceEvents(received: received) }
        retained.took(message.payload, on: message.topic)
        if message.retained, !events.isEmpty {
            do {
                events = try await fleet.store.offPool { [events] in try RetainedMessages.unseen(events, device: device.name, in: $0) }
            } catch {
                logger.error("Cannot read a device's history", metadata: ["device": "\(device.name)", "error": "\(error)"])
            }
            if events.isEmpty { return await fleet.countRefusal("mqtt.retained-again", device: device.name) }
        }
        // A retained message is the broker's copy, not a new report from the phone.
        if !message.retained {
            phoneEnergy?.ownTracks(
                messages, device: device.name, requestBytes: MQTTSender.publishBytes(topic: message.topic, payload: message.size), replyBytes: 0)
        }
        guard !events.isEmpty else { return }
        do {
            try await fleet.pipeline(for: device.name).handle(events)
            // A retained message is the broker's old copy: the phone is not listening for an answer to it.
            if let commands, !message.retained { await send(to: topic, after: messages, publisher: commands) }
        } catch {
            logger.error("Cannot start a device's pipeline", metadata: ["device": "\(device.name)", "error": "\(error)"])
        }
    }
}
