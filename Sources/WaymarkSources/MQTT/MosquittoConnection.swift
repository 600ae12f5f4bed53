import CMosquitto
import Foundation
import Logging
import Synchronization

/// One libmosquitto client's life, shared by `MQTTSubscriber` and `MQTTPublisher`: created with
/// its owner as the callbacks' context, given credentials and a reconnect delay (1 s doubling to
/// 30 s), connected asynchronously on a thread of its own, and disconnected and destroyed once.
///
/// libmosquitto reconnects a connection that drops, but not a first one that failed: its thread
/// then waits for a connection that never comes (a daemon started before its broker would never
/// connect). So a failed first connection is retried here, on a thread of this client's own, with
/// the same backoff, and libmosquitto's thread is started once a connection is under way.
final class MosquittoConnection: Sendable {
    private struct Handle: @unchecked Sendable { let pointer: OpaquePointer }
    private let client: Mutex<Handle?> = Mutex(nil)

    struct Options {
        var host: String
        var port: Int
        var clientID: String
        var cleanSession: Bool
        var username: String?
        var password: String?
        var keepAlive: Int
    }

    /// Creates the client; `callbacks` sets the owner's callbacks on it before it connects.
    func start(
        _ options: Options, context: UnsafeMutableRawPointer, logger: Logger, callbacks: (OpaquePointer) -> Void
    ) throws(MQTTError) {
        _ = Self.library
        guard let mosquitto = mosquitto_new(options.clientID, options.cleanSession, context) else {
            throw MQTTError("cannot create an MQTT client (mosquitto_new failed: \(String(cString: strerror(errno))))")
        }
        client.withLock { $0 = Handle(pointer: mosquitto) }
        if let username = options.username {
            try check(mosquitto_username_pw_set(mosquitto, username, options.password), "setting the MQTT credentials")
        }
        try check(mosquitto_reconnect_delay_set(mosquitto, 1, 30, true), "setting the reconnect delay")
        callbacks(mosquitto)
        let code = mosquitto_connect_async(mosquitto, options.host, Int32(options.port), Int32(options.keepAlive))
        guard code != MOSQ_ERR_SUCCESS.rawValue else {
            return try check(mosquitto_loop_start(mosquitto), "starting the MQTT client's thread")
        }
        logger.warning("MQTT broker not reachable yet; retrying", metadata: ["mqtt.error": "\(Self.describe(code))"])
        let retrying = Thread { [self] in retryFirstConnection(options, logger: logger) }
        retrying.name = "waymark-mqtt-connect"
        retrying.start()
    }

    /// Tries the first connection again after 1 s, doubling to 30 s, until it is under way (then
    /// starts libmosquitto's thread) or the client is stopped.
    private func retryFirstConnection(_ options: Options, logger: Logger) {
        var delay = 1.0
        while true {
            Thread.sleep(forTimeInterval: delay)
            let outcome = withClient { mosquitto -> Int32 in
                let code = mosquitto_connect_async(mosquitto, options.host, Int32(options.port), Int32(options.keepAlive))
                return code == MOSQ_ERR_SUCCESS.rawValue ? mosquitto_loop_start(mosquitto) : code
            }
            guard let outcome else { return }  // stopped
            if outcome == MOSQ_ERR_SUCCESS.rawValue { return }
            logger.debug("MQTT broker still not reachable", metadata: ["mqtt.error": "\(Self.describe(outcome))"])
            delay = min(delay * 2, 30)
        }
    }

    /// `body` with the client, under the lock; nil once stopped.
    func withClient<T: Sendable>(_ body: (OpaquePointer) -> T) -> T? {
        client.withLock { handle -> T? in
            guard let handle else { return nil }
            return body(handle.pointer)
        }
    }

    /// Disconnects, stops the client's thread and destroys it; false when it was not running.
    @discardableResult
    func stop() -> Bool {
        guard let mosquitto = client.withLock({ client -> Handle? in
            defer { client = nil }
            return client
        })?.pointer else { return false }
        mosquitto_disconnect(mosquitto)
        mosquitto_loop_stop(mosquitto, false)
        mosquitto_destroy(mosquitto)
        return true
    }

    func check(_ code: Int32, _ doing: String) throws(MQTTError) {
        guard code == MOSQ_ERR_SUCCESS.rawValue else { throw MQTTError("\(doing): \(Self.describe(code))") }
    }

    static func describe(_ code: Int32) -> String {
        code == MOSQ_ERR_ERRNO.rawValue ? String(cString: strerror(errno)) : String(cString: mosquitto_strerror(code))
    }

    /// Why the broker refused a connection (CONNACK), in words.
    static func refusal(_ code: Int32) -> String { String(cString: mosquitto_connack_string(code)) }

    /// `mosquitto_lib_init` once per process.
    private static let library: Void = { _ = mosquitto_lib_init() }()
}
