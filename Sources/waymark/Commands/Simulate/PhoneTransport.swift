import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOPosix
import Synchronization
import WaymarkSimulation
import WaymarkSources

/// How the simulated phone reaches the daemon: each message sent, and the command messages that
/// came back for it (HTTP's reply body; over MQTT, what arrived on the command topic).
protocol PhoneTransport: Sendable {
    func send(_ message: PhoneMessage) async throws -> [String]
    func close() async
}

/// OwnTracks' HTTP mode: `POST URL/v1/owntracks` with the app's Basic credentials and
/// `X-Limit-U`/`X-Limit-D` headers; the reply is the command array (docs/devices.md).
final class HTTPPhoneTransport: PhoneTransport {
    let client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: .init(redirectConfiguration: .disallow))
    let url: String
    let user: String
    let device: String
    let authorization: String

    init(baseURL: String, user: String, device: String, secret: String) {
        url = baseURL.hasSuffix("/") ? baseURL + "v1/owntracks" : baseURL + "/v1/owntracks"
        self.user = user
        self.device = device
        authorization = "Basic " + Data("\(user):\(secret)".utf8).base64EncodedString()
    }

    func send(_ message: PhoneMessage) async throws -> [String] {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "Authorization", value: authorization)
        request.headers.add(name: "X-Limit-U", value: user)
        request.headers.add(name: "X-Limit-D", value: device)
        request.body = .bytes(ByteBuffer(string: message.json))
        let response: HTTPClientResponse
        let body: ByteBuffer
        do {
            response = try await client.execute(request, timeout: .seconds(30))
            body = try await response.body.collect(upTo: 16 << 20)
        } catch {
            throw CommandError("cannot reach the daemon at \(url): \(error)")
        }
        let text = String(buffer: body)
        switch response.status.code {
        case 200..<300: return [text]
        case 401: throw CommandError("the daemon at \(url) refused the credentials (401): check --device, --user and --secret-file")
        case 403: throw CommandError("the daemon at \(url) refused device '\(device)' for these credentials (403): \(text.prefix(300))")
        default: throw CommandError("the daemon at \(url) answered \(response.status.code) to a \(message.isTransition ? "transition" : "location") at \(message.time.rfc3339): \(text.prefix(300))")
        }
    }

    func close() async { try? await client.shutdown() }
}

/// OwnTracks' MQTT mode: locations published at QoS 1 on `owntracks/USER/DEVICE`, transitions on
/// its `event` subtopic; commands read from its `cmd` subtopic. After each message the phone
/// waits up to `replyWait` for commands (and, once one has come, until none more has come for
/// `quietWait`), so a run does not depend on how fast the broker happens to be.
final class MQTTPhoneTransport: PhoneTransport {
    static let replyWait: Duration = .milliseconds(200)
    static let quietWait: Duration = .milliseconds(30)

    let topic: String
    let publisher: MQTTPublisher
    let subscriber: MQTTSubscriber
    /// Command messages come in on the subscriber's stream; the sender takes them from here.
    final class Inbox: Sendable {
        let state = Mutex<(messages: [String], arrived: ContinuousClock.Instant?)>(([], nil))
    }

    private let inbox = Inbox()
    private let reader: Task<Void, Never>

    init(host: String, port: Int, user: String, device: String, logger: Logger) async throws {
        topic = "owntracks/\(user)/\(device)"
        let clientID = "waymark-simulate-\(device)-\(getpid())"
        publisher = MQTTPublisher(settings: .init(host: host, port: port, clientID: clientID + "-pub"), logger: logger)
        subscriber = MQTTSubscriber(settings: .init(host: host, port: port, clientID: clientID + "-cmd", topics: [topic + "/cmd"]), logger: logger)
        let subscriber = subscriber, inbox = inbox
        reader = Task {
            for await message in subscriber.messages where !message.retained {
                let text = String(decoding: message.payload, as: UTF8.self)
                inbox.state.withLock { $0.messages.append(text); $0.arrived = .now }
            }
        }
        do {
            try publisher.start()
            try subscriber.start()
        } catch {
            throw CommandError("MQTT broker \(host):\(port): \(error)")
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while !(publisher.isConnected && subscriber.isConnected) {
            guard ContinuousClock.now < deadline else {
                await close()
                throw CommandError("cannot connect to the MQTT broker at \(host):\(port) within 10 s")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        // The subscription is made in the connection's callback; give the broker its SUBACK.
        try await Task.sleep(for: .milliseconds(200))
    }

    func send(_ message: PhoneMessage) async throws -> [String] {
        let destination = message.isTransition ? topic + "/event" : topic
        if case .failure(let error) = await publisher.publish(topic: destination, payload: Array(message.json.utf8)) {
            throw CommandError("publishing to \(destination): \(error)")
        }
        let start = ContinuousClock.now
        while true {
            let (count, arrived) = inbox.state.withLock { ($0.messages.count, $0.arrived) }
            let now = ContinuousClock.now
            if count > 0, let arrived, now - arrived >= Self.quietWait { break }
            if count == 0, now - start >= Self.replyWait { break }
            try await Task.sleep(for: .milliseconds(5))
        }
        return inbox.state.withLock { inbox in
            defer { inbox = ([], nil) }
            return inbox.messages
        }
    }

    func close() async {
        publisher.stop()
        subscriber.stop()
        await reader.value
    }
}
