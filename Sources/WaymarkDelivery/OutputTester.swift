import AsyncHTTPClient
import Foundation
import Logging
import WaymarkCore
import WaymarkOutputs

/// `waymark outputs test`: one test CloudEvent (`org.waymark.test`, a fresh id each time) sent
/// to the output now, outside its queue, signed like any other, and the receiver's answer.
public enum OutputTester {
    public static func test(_ output: Output, source: String = OutputOrigin.source()) async -> (delivered: Bool, answer: String) {
        let now = Timestamp(secondsSince1970: Date().timeIntervalSince1970)
        let body = CloudEvent.testJSON(source: source, at: now, id: UUID().uuidString.lowercased())
        let started = ContinuousClock.now
        let outcome: DeliveryOutcome
        switch output.kind {
        case .webhook(let url):
            let client = WebhookSender.makeClient()
            outcome = await WebhookSender(client: client).send(body, to: url, secret: output.secret, at: Int64(now.secondsSince1970.rounded(.down)))
            try? await client.shutdown()
        case .mqtt(let url):
            outcome = await testMQTT(output, url: url, body: body)
        }
        let elapsed = ContinuousClock.now - started
        let milliseconds = Int((Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15).rounded())
        switch outcome {
        case .delivered: return (true, "delivered in \(milliseconds) ms")
        case .gone(let reason), .failed(let reason): return (false, reason)
        }
    }

    /// Connects (waiting up to 5 s), publishes on the topic of a `test` event of `local`, disconnects.
    private static func testMQTT(_ output: Output, url: String, body: String) async -> DeliveryOutcome {
        guard case .success(let target) = MQTTTarget.parse(url) else { return .failed("the URL cannot be used") }
        let sender: MQTTSender
        do {
            sender = try MQTTSender.start(output, target: target, logger: Logger(label: "waymark.outputs.test", factory: { _ in SwiftLogNoOpLogHandler() }))
        } catch {
            return .failed(error.description)
        }
        defer { sender.publisher.stop() }
        let deadline = ContinuousClock.now + .seconds(5)
        while !sender.publisher.isConnected, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(50)) }
        return await sender.send(body, topic: target.topic(device: "local", kind: "test"))
    }
}
