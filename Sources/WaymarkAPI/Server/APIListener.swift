import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import NIOSSL
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One HTTP/1.1 listener serving the API's router: what Hummingbird's `Application` does,
/// without its date cache, a timer that wakes the process every second to keep the `Date`
/// header current. An idle daemon should sleep until something happens (docs/semantics.md §4,
/// BENCHMARKS.md "at rest"); the header is formatted per response instead, which the local,
/// low-rate API does not notice.
struct APIListener<Responder: HTTPResponder>: Service
where Responder.Context: RequestContext, Responder.Context.Source == ApplicationRequestContextSource {
    let responder: Responder
    let address: BindAddress
    let logger: Logger
    let onServerRunning: @Sendable (any Channel) async -> Void
    /// A connection that sends nothing for this long is closed (nil: never).
    var idleTimeout: Duration? = nil
    /// Serve HTTPS with this configuration (nil: plain HTTP).
    var tls: TLSConfiguration? = nil
    /// Answer only peers this accepts (a Unix socket's SO_PEERCRED); others get 403
    /// `forbidden-peer`. Nil: no check (TCP listeners, which have their tokens).
    var admits: (@Sendable (PeerCredentials) -> Bool)? = nil

    /// The longest request target answered by the router; longer ones get 414 `uri-too-long`
    /// as JSON like every other error.
    static var maximumTargetBytes: Int { 16 << 10 }
    /// What the HTTP decoder takes before it gives up with a bare 400 (NIO's default, 80 KiB,
    /// refused a 100 KB query string without a word): request line and headers.
    static var maximumHeadBytes: Int { 256 << 10 }

    func run() async throws {
        let responder = self.responder
        let logger = self.logger
        let admits = self.admits
        let idle = idleTimeout.map { TimeAmount.nanoseconds(Int64($0.components.seconds) * 1_000_000_000 + $0.components.attoseconds / 1_000_000_000) }
        let decoder = HTTP1Channel.Configuration.DecoderConfiguration(
            maxHeaderFieldSize: Self.maximumHeadBytes, maxHeaderListSize: Self.maximumHeadBytes)
        let http1 = HTTPServerBuilder.http1(configuration: .init(idleTimeout: idle, httpDecoderConfiguration: decoder))
        let builder = try tls.map { try HTTPServerBuilder.tls(http1, tlsConfiguration: $0) } ?? http1
        let server = try builder.buildServer(
            configuration: ServerConfiguration(address: address, serverName: nil),
            eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
            logger: logger,
            responder: { request, writer, channel in
                let context = Responder.Context(source: ApplicationRequestContextSource(channel: channel, logger: logger))
                var response: Response
                do {
                    if let admits {
                        guard let peer = await PeerCredentials.of(channel), admits(peer) else {
                            logger.warning("API request from a user the socket does not serve refused")
                            throw APIError(.forbidden, code: "forbidden-peer", message: "this API serves the daemon's own user only")
                        }
                    }
                    guard request.uri.string.utf8.count <= Self.maximumTargetBytes else {
                        throw APIError(
                            .uriTooLong, code: "uri-too-long",
                            message: "the request target has \(request.uri.string.utf8.count) bytes; at most \(Self.maximumTargetBytes)")
                    }
                    response = try await responder.respond(to: request, context: context)
                } catch let error as APIError {
                    // Refused here, before the router (forbidden-peer, uri-too-long): the strict
                    // security headers the router puts on its own answers. Successful answers
                    // of the device listener, whose router adds none, stay as small as they were.
                    response = error.response
                    SecurityHeaders.strict.apply(to: &response.headers)
                } catch {
                    logger.debug("unhandled error in the API", metadata: ["error": "\(error)"])
                    response = Response(status: .internalServerError)
                    SecurityHeaders.strict.apply(to: &response.headers)
                }
                response.headers[.date] = HTTPDate.now()
                try await writer.write(response: response.head, body: response.body)
            },
            onServerRunning: onServerRunning)
        try await server.run()
    }
}

/// The `Date` header's format (RFC 9110 §5.6.7, IMF-fixdate): `Sun, 06 Nov 1994 08:49:37 GMT`.
enum HTTPDate {
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The last second formatted: a busy listener formats the header once a second, not once a
    /// response, and an idle one not at all (no timer keeps it fresh).
    private static let latest = Mutex<(seconds: time_t, text: String)>((-1, ""))

    static func now() -> String {
        let seconds = time(nil)
        if let text = latest.withLock({ $0.seconds == seconds ? $0.text : nil }) { return text }
        let text = format(secondsSince1970: seconds)
        latest.withLock { $0 = (seconds, text) }
        return text
    }

    static func format(secondsSince1970 seconds: time_t) -> String {
        var clock = seconds
        var parts = tm()
        gmtime_r(&clock, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
