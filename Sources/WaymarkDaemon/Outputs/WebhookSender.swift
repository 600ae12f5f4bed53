import AsyncHTTPClient
import NIOCore
import WaymarkOutputs

/// POSTs CloudEvents to webhooks (docs/outputs.md) through one shared HTTP client (keep-alive
/// connections, HTTP and HTTPS): 2xx is delivered, 410 Gone stops the output, anything else —
/// another status, a refused connection, a timeout — is a failure to retry.
struct WebhookSender: Sendable {
    let client: HTTPClient
    var timeout: TimeAmount = .seconds(10)

    /// `traffic` hears the exchange's bytes once the receiver answered (see `TrafficMiddleware`
    /// for what is counted; the Host and Content-Length fields the client adds are estimated).
    func send(
        _ body: String, to url: String, secret: String, at seconds: Int64, traffic: @Sendable (Int) -> Void = { _ in }
    ) async -> DeliveryOutcome {
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
            let answer = try? await response.body.collect(upTo: 64 << 10)
            let requestHead = 16 + url.utf8.count + 48 + request.headers.reduce(2) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
            let responseHead = 17 + response.headers.reduce(2) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
            traffic(requestHead + bytes.count + responseHead + (answer?.readableBytes ?? 0))
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
