import CMosquitto
import Foundation
import Logging
import Synchronization

/// A persistent MQTT subscription through libmosquitto (docs/devices.md, OwnTracks' MQTT mode):
/// one client with a fixed id and `clean_session` off, so the broker keeps QoS 1 messages for it
/// while it is away; it subscribes to `topics` at QoS 1 on every connection, and reconnects by
/// itself with backoff (1 s doubling to 30 s) until ``stop()``.
///
/// libmosquitto runs the connection on a thread of its own (`mosquitto_loop_start`), never on
/// the cooperative pool; messages arrive on ``messages``, in order, for one consumer.
///
/// Acknowledgement: libmosquitto answers a QoS 1 message (PUBACK) when its callback returns,
/// which is when the message is on ``messages``, not when its fixes are committed. A daemon
/// killed in between loses those few milliseconds of messages; the broker would not resend them.
public final class MQTTSubscriber: Sendable {
    /// One message as it arrived.
    public struct Message: Sendable {
        public var topic: String
        /// Empty when the payload was over `Settings.maximumPayload` (see `size`).
        public var payload: [UInt8]
        /// The payload's size as the broker sent it.
        public var size: Int
        /// Whether the broker sent it as a retained message: its last message on the topic, sent
        /// again on every subscription (so on every connection).
        public var retained: Bool

        public init(topic: String, payload: [UInt8], size: Int? = nil, retained: Bool = false) {
            self.topic = topic
            self.payload = payload
            self.size = size ?? payload.count
            self.retained = retained
        }

        /// Over the limit: its payload was dropped unread.
        public var isOversized: Bool { size > payload.count }
    }

    public struct Settings: Sendable, Equatable {
        public var host: String
        public var port: Int
        public var clientID: String
        public var username: String?
        public var password: String?
        public var topics: [String]
        /// Seconds between keep-alive pings.
        public var keepAlive: Int = 30
        /// Bytes of payload a message may have: a larger one arrives without it (`isOversized`),
        /// never copied.
        public var maximumPayload = defaultMaximumPayload
        /// 64 KiB, the device listener's default body limit (`devices.max_body_bytes`).
        public static let defaultMaximumPayload = 64 << 10

        public init(host: String, port: Int, clientID: String, username: String? = nil, password: String? = nil, topics: [String]) {
            self.host = host
            self.port = port
            self.clientID = clientID
            self.username = username
            self.password = password
            self.topics = topics
        }
    }

    public let messages: AsyncStream<Message>
    let continuation: AsyncStream<Message>.Continuation
    public let settings: Settings
    let logger: Logger
    /// Whether the client is connected to the broker now.
    public var isConnected: Bool { connected.load(ordering: .relaxed) }
    let connected = Atomic<Bool>(false)
    private let connection = MosquittoConnection()

    public init(settings: Settings, logger: Logger) {
        self.settings = settings
        self.logger = logger
        (messages, continuation) = AsyncStream<Message>.makeStream()
    }

    /// Connects (asynchronously: a broker that is not up yet is retried) and starts the
    /// client's thread. Throws `MQTTError` when libmosquitto refuses the settings.
    public func start() throws(MQTTError) {
        let options = MosquittoConnection.Options(
            host: settings.host, port: settings.port, clientID: settings.clientID, cleanSession: false,
            username: settings.username, password: settings.password, keepAlive: settings.keepAlive)
        try connection.start(options, context: Unmanaged.passUnretained(self).toOpaque(), logger: logger) { mosquitto in
            mosquitto_connect_callback_set(mosquitto) { _, context, code in MQTTSubscriber.from(context).connected(code: code) }
            mosquitto_disconnect_callback_set(mosquitto) { _, context, code in MQTTSubscriber.from(context).disconnected(code: code) }
            mosquitto_message_callback_set(mosquitto) { _, context, message in
                guard let message = message?.pointee else { return }
                MQTTSubscriber.from(context).received(message)
            }
        }
    }

    /// Disconnects, stops the client's thread and ends ``messages``.
    public func stop() {
        guard connection.stop() else { return }
        continuation.finish()
    }

    deinit { stop() }

    private static func from(_ context: UnsafeMutableRawPointer?) -> MQTTSubscriber {
        Unmanaged<MQTTSubscriber>.fromOpaque(context!).takeUnretainedValue()
    }

    private func connected(code: Int32) {
        guard code == 0 else {
            logger.warning("MQTT broker refused the connection", metadata: ["mqtt.error": "\(MosquittoConnection.refusal(code))"])
            return
        }
        connected.store(true, ordering: .relaxed)
        logger.notice("MQTT connected", metadata: ["mqtt.broker": "\(settings.host):\(settings.port)", "mqtt.topics": "\(settings.topics)"])
        connection.withClient { mosquitto in
            for topic in settings.topics {
                let code = mosquitto_subscribe(mosquitto, nil, topic, 1)
                if code != MOSQ_ERR_SUCCESS.rawValue {
                    logger.error("MQTT subscription failed", metadata: ["mqtt.topic": "\(topic)", "mqtt.error": "\(MosquittoConnection.describe(code))"])
                }
            }
        }
    }

    private func disconnected(code: Int32) {
        connected.store(false, ordering: .relaxed)
        if code != 0 { logger.warning("MQTT connection lost; reconnecting", metadata: ["mqtt.error": "\(MosquittoConnection.describe(code))"]) }
    }

    private func received(_ message: mosquitto_message) {
        let topic = String(cString: message.topic)
        let size = Int(message.payloadlen)
        let payload = size > settings.maximumPayload ? [] : message.payload.map { Array(UnsafeRawBufferPointer(start: $0, count: size)) } ?? []
        continuation.yield(Message(topic: topic, payload: payload, size: size, retained: message.retain))
    }
}

/// An MQTT client failure a user can act on.
public struct MQTTError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
