import AsyncHTTPClient
import NIOCore
import WaymarkOutputs

/// POSTs CloudEvents to webhooks (docs/outputs.md) through one shared HTTP client (keep-alive
/// connections, HTTP and HTTPS): 2xx is delivered, 410 Gone stops the output, anything else —
/// another status, a refused connection, a timeout — is a failure to retry.
struct WebhookSender: Sendable {
    let client: HTTPClient
    var timeout: TimeAmount = .seconds(10)

    func send(_ body: String, to url: String, secret: String, at seconds: Int64) async -> DeliveryOutcome {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        let bytes = Array(body.utf8)
        request.headers.add(name: "Content-Type", value: CloudEvent.contentType)
        request.headers.add(name: "User-Agent", value: "waymark")
        request.headers.add(name: WebhookSignature.header, value: WebhookSignature.value(body: bytes, secret: secret, time: seconds))
        request.body = .bytes(ByteBuffer(bytes: bytes))
        do {
            let response = try await client.execute(request, timeout: timeout)
            // Read (and drop) what the receiver says, so the connection can be used again.
            _ = try? await response.body.collect(upTo: 64 << 10)
            switch response.status.code {
            case 200..<300: return .delivered
            case 410: return .gone("the receiver answered 410 Gone")
            default: return .failed("the receiver answered \(response.status.code)")
            }
        } catch {
            return .failed("\(error)")
        }
    }
}
