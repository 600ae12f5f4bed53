import CMosquitto
import Foundation
import Logging
import Synchronization

/// Publishes at QoS 1 through libmosquitto (docs/outputs.md, MQTT outputs): `publish` returns
/// once the broker has acknowledged the message (PUBACK), or fails at once when the client is not
/// connected or the connection drops before the acknowledgement — the caller retries, and the
/// broker may then see a message twice (an output's CloudEvents id tells them apart).
///
/// The connection runs on libmosquitto's own thread and reconnects by itself (1 s doubling to
/// 30 s), as `MQTTSubscriber`'s does.
public final class MQTTPublisher: Sendable {
    public struct Settings: Sendable, Equatable {
        public var host: String
        public var port: Int
        public var clientID: String
        public var username: String?
        public var password: String?
        public var keepAlive = 30

        public init(host: String, port: Int, clientID: String, username: String? = nil, password: String? = nil) {
            self.host = host
            self.port = port
            self.clientID = clientID
            self.username = username
            self.password = password
        }
    }

    /// Publications waiting for their PUBACK by message id, and acknowledgements that came back
    /// before their publisher had registered (libmosquitto hands the id out only on return).
    private struct Waiting {
        var continuations: [Int32: CheckedContinuation<Result<Void, MQTTError>, Never>] = [:]
        var acknowledged: Set<Int32> = []
    }

    public let settings: Settings
    let logger: Logger
    private let waiting = Mutex(Waiting())
    private let connected = Atomic<Bool>(false)
    private let connection = MosquittoConnection()

    public init(settings: Settings, logger: Logger) {
        self.settings = settings
        self.logger = logger
    }

    public var isConnected: Bool { connected.load(ordering: .relaxed) }

    /// Connects (a broker that is not up yet is retried) and starts the client's thread.
    public func start() throws(MQTTError) {
        let options = MosquittoConnection.Options(
            host: settings.host, port: settings.port, clientID: settings.clientID, cleanSession: true,
            username: settings.username, password: settings.password, keepAlive: settings.keepAlive)
        try connection.start(options, context: Unmanaged.passUnretained(self).toOpaque(), logger: logger) { mosquitto in
            mosquitto_connect_callback_set(mosquitto) { _, context, code in MQTTPublisher.from(context).connected(code: code) }
            mosquitto_disconnect_callback_set(mosquitto) { _, context, _ in MQTTPublisher.from(context).disconnected() }
            mosquitto_publish_callback_set(mosquitto) { _, context, mid in MQTTPublisher.from(context).acknowledged(mid) }
        }
    }

    /// Publishes `payload` on `topic` at QoS 1, retained when asked (the broker keeps the last
    /// one for subscribers that come later); returns once acknowledged.
    public func publish(topic: String, payload: [UInt8], retain: Bool = false) async -> Result<Void, MQTTError> {
        guard isConnected else { return .failure(MQTTError("not connected to the broker \(settings.host):\(settings.port)")) }
        return await withCheckedContinuation { continuation in
            var mid: Int32 = 0
            let code = connection.withClient { mosquitto in
                payload.withUnsafeBytes { bytes in mosquitto_publish(mosquitto, &mid, topic, Int32(bytes.count), bytes.baseAddress, 1, retain) }
            } ?? MOSQ_ERR_NO_CONN.rawValue
            guard code == MOSQ_ERR_SUCCESS.rawValue else {
                return continuation.resume(returning: .failure(MQTTError("publishing: \(MosquittoConnection.describe(code))")))
            }
            let already = waiting.withLock { waiting in
                if waiting.acknowledged.remove(mid) != nil { return true }
                waiting.continuations[mid] = continuation
                return false
            }
            if already { return continuation.resume(returning: .success(())) }
            // The connection may have dropped (and failed the waiting) before this registered.
            if !isConnected, let orphan = waiting.withLock({ $0.continuations.removeValue(forKey: mid) }) {
                orphan.resume(returning: .failure(MQTTError("the connection to the broker dropped before its acknowledgement")))
            }
        }
    }

    /// Disconnects and stops the client's thread; publications still waiting fail.
    public func stop() {
        guard connection.stop() else { return }
        failWaiting("the MQTT client stopped")
    }

    deinit { stop() }

    private static func from(_ context: UnsafeMutableRawPointer?) -> MQTTPublisher {
        Unmanaged<MQTTPublisher>.fromOpaque(context!).takeUnretainedValue()
    }

    private func connected(code: Int32) {
        guard code == 0 else {
            logger.warning("MQTT broker refused the connection", metadata: ["mqtt.error": "\(MosquittoConnection.refusal(code))"])
            return
        }
        connected.store(true, ordering: .relaxed)
        logger.notice("MQTT output connected", metadata: ["mqtt.broker": "\(settings.host):\(settings.port)"])
    }

    private func disconnected() {
        connected.store(false, ordering: .relaxed)
        failWaiting("the connection to the broker dropped before its acknowledgement")
    }

    private func acknowledged(_ mid: Int32) {
        let continuation = waiting.withLock { waiting -> CheckedContinuation<Result<Void, MQTTError>, Never>? in
            if let continuation = waiting.continuations.removeValue(forKey: mid) { return continuation }
            waiting.acknowledged.insert(mid)
            return nil
        }
        continuation?.resume(returning: .success(()))
    }

    private func failWaiting(_ reason: String) {
        let continuations = waiting.withLock { waiting in
            defer { waiting = Waiting() }
            return Array(waiting.continuations.values)
        }
        for continuation in continuations { continuation.resume(returning: .failure(MQTTError(reason))) }
    }
}
