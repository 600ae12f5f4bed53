import AsyncHTTPClient
import NIOCore
import NIOPosix
import WaymarkOutputs

/// POSTs CloudEvents to webhooks (docs/outputs.md) through one shared HTTP client (keep-alive
/// connections, HTTP and HTTPS): 2xx is delivered, 410 Gone stops the output, anything else —
/// a redirect (never followed), another status, a refused connection, an exchange not over
/// within `timeout` — is a failure to retry.
struct WebhookSender: Sendable {
    let client: HTTPClient
    /// For the whole exchange: connecting, sending, the answer's head and its body.
    var timeout: Duration = .seconds(10)

    /// How much of an answer's body is read; the rest is dropped with the connection.
    static let answerLimit = 64 << 10

    /// The client webhooks share: it never follows a redirect (a 301–303 would turn the POST
    /// into a GET without the event, a 307/308 would send the signed event elsewhere).
    static func makeClient() -> HTTPClient {
        HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: .init(redirectConfiguration: .disallow))
    }

    /// `traffic` hears the exchange's bytes once the receiver answered (see `TrafficMiddleware`
    /// for what is counted; the Host and Content-Length fields the client adds are estimated).
    /// A cancelled task ends the exchange at once (its connection closed): a failure.
    func send(
        _ body: String, to url: String, secret: String, at seconds: Int64, traffic: @escaping @Sendable (Int) -> Void = { _ in }
    ) async -> DeliveryOutcome {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        let bytes = Array(body.utf8)
        request.headers.add(name: "Content-Type", value: CloudEvent.contentType)
        request.headers.add(name: "User-Agent", value: "waymark")
        request.headers.add(name: WebhookSignature.header, value: WebhookSignature.value(body: bytes, secret: secret, time: seconds))
        request.body = .bytes(ByteBuffer(bytes: bytes))
        let requestHead = 16 + url.utf8.count + 48 + request.headers.reduce(2) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
        do {
            let exchange = try await TimeLimit.run(timeout) { [client, request] in
                let response = try await client.execute(request, deadline: .distantFuture)
                // Read what the receiver says (so the connection can be used again), up to the limit.
                let answered = try await Self.drain(response.body)
                let responseHead = 17 + response.headers.reduce(2) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
                traffic(requestHead + bytes.count + responseHead + answered)
                return response.status.code
            }
            guard let status = exchange else {
                return .failed("the receiver's answer was not over within \(timeout.components.seconds) s")
            }
            return Self.outcome(status: status)
        } catch {
            return .failed("\(error)")
        }
    }

    /// The outcome a status stands for.
    static func outcome(status: UInt) -> DeliveryOutcome {
        switch status {
        case 200..<300: .delivered
        case 410: .gone("the receiver answered 410 Gone")
        case 300..<400: .failed("the receiver answered \(status) (redirects are not followed; point the output at the final URL)")
        default: .failed("the receiver answered \(status)")
        }
    }

    /// Reads a body to its end or `answerLimit` bytes, whichever comes first (leaving early
    /// closes the connection); the bytes read.
    private static func drain(_ body: HTTPClientResponse.Body) async throws -> Int {
        var read = 0
        for try await chunk in body {
            read += chunk.readableBytes
            if read >= answerLimit { break }
        }
        return read
    }
}
