import AsyncHTTPClient
import Foundation
import NIOPosix
import WaymarkCore
import WaymarkOutputs

/// `waymark outputs test`: one test CloudEvent (`org.waymark.test`, a fresh id each time) sent
/// to the output now, outside its queue, signed like any other, and the receiver's answer.
public enum OutputTester {
    public static func test(_ output: Output, source: String = "urn:waymark:" + OutputService.hostName()) async -> (delivered: Bool, answer: String) {
        let client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton)
        let now = Timestamp(secondsSince1970: Date().timeIntervalSince1970)
        let body = CloudEvent.testJSON(source: source, at: now, id: UUID().uuidString.lowercased())
        let started = ContinuousClock.now
        let outcome: WebhookSender.Outcome
        switch output.kind {
        case .webhook(let url):
            outcome = await WebhookSender(client: client).send(body, to: url, secret: output.secret, at: Int64(now.secondsSince1970.rounded(.down)))
        }
        try? await client.shutdown()
        let elapsed = ContinuousClock.now - started
        let milliseconds = Int((Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15).rounded())
        switch outcome {
        case .delivered: return (true, "delivered in \(milliseconds) ms")
        case .gone(let reason), .failed(let reason): return (false, reason)
        }
    }
}
