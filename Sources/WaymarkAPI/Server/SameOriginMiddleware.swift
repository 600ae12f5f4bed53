import HTTPTypes
import Hummingbird
import Synchronization

/// Refuses what a page on another origin could make a browser send (issue 48, docs/web.md
/// "Host and Origin"):
///
/// - **DNS rebinding**: every request must name a loopback host (`127.0.0.1`, `localhost` or
///   `[::1]`) in `Host`; on the TCP listener with its own port (once known) and never without a
///   `Host`. Over the Unix socket, which the documented socat and ssh forwards reach from any
///   port, any port, or no `Host` at all (curl, the CLI). A page on `evil.example`, rebound to
///   127.0.0.1, sends `Host: evil.example:PORT` and gets 403 `foreign-host`.
/// - **Cross-site requests**: a request that can change state (POST, PUT, PATCH, DELETE) with an
///   `Origin` must come from the request's own `Host` (scheme-less host and port); otherwise 403
///   `cross-origin`. A form another origin posts is sent without a preflight, with its `Origin`.
///   Requests without `Origin` (curl, the CLI, scripts) are not browsers' and pass.
struct SameOriginMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Which listener the router serves.
    enum Listener: Sendable {
        case unixSocket
        /// The loopback TCP listener; `port` is its port once known (nil: any port).
        case tcp(port: ListeningPort)
    }

    let listener: Listener

    /// `Host` as a field: only a second one stays among the fields.
    private static var host: HTTPField.Name { HTTPField.Name("Host")! }

    static var loopbackHosts: Set<String> { ["127.0.0.1", "localhost", "[::1]"] }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let host = try checkedHost(request)
        if [.post, .put, .patch, .delete].contains(request.method), let origin = request.headers[.origin] {
            guard let host, let from = Self.authority(ofOrigin: origin), from == host else {
                throw APIError(
                    .forbidden, code: "cross-origin",
                    message: "a \(request.method.rawValue) from the page at '\(origin)' is refused: this API changes state only "
                        + "for requests from its own origin (Host '\(request.head.authority ?? "")')")
            }
        }
        return try await next(request, context)
    }

    /// The request's `Host` as `host:port`, checked against the listener's rule; nil when the
    /// Unix socket was asked without one.
    private func checkedHost(_ request: Request) throws(APIError) -> HostAndPort? {
        let given = request.head.authority
        let refuse = { (why: String) in
            APIError(
                .forbidden, code: "foreign-host",
                message: "\(why); this API answers only for 127.0.0.1, localhost or [::1] (docs/web.md, \"Host and Origin\")")
        }
        // A second Host stays among the fields (the first became the authority): ambiguous.
        guard request.headers[values: Self.host].isEmpty else { throw refuse("the request has more than one Host") }
        guard let given else {
            if case .unixSocket = listener { return nil }
            throw refuse("the request has no Host")
        }
        guard let host = HostAndPort(authority: given, defaultPort: 80), Self.loopbackHosts.contains(host.name) else {
            throw refuse("Host '\(given)' is not a loopback name")
        }
        if case .tcp(let port) = listener, let expected = port.value, host.port != expected {
            throw refuse("Host '\(given)' names another port than this listener's \(expected)")
        }
        return host
    }

    /// `scheme://host[:port]` as `host:port` (the scheme's default port when none is given);
    /// nil for `null` and anything else.
    static func authority(ofOrigin origin: String) -> HostAndPort? {
        let lowered = origin.lowercased()
        for (scheme, port) in [("http://", 80), ("https://", 443)] where lowered.hasPrefix(scheme) {
            return HostAndPort(authority: String(lowered.dropFirst(scheme.count)), defaultPort: port)
        }
        return nil
    }
}

/// A lowercased host (IPv6 in brackets) and its port.
struct HostAndPort: Equatable, Sendable {
    var name: String
    var port: Int

    /// `host`, `host:port`, `[v6]` or `[v6]:port`; nil when malformed (a path, user info, a
    /// port that is not a number).
    init?(authority: String, defaultPort: Int) {
        let text = authority.lowercased()
        guard !text.isEmpty, !text.contains(where: { "/@?# ".contains($0) }) else { return nil }
        let hostEnd: String.Index
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            hostEnd = text.index(after: close)
        } else {
            hostEnd = text.firstIndex(of: ":") ?? text.endIndex
        }
        name = String(text[..<hostEnd])
        let rest = text[hostEnd...]
        if rest.isEmpty {
            port = defaultPort
        } else {
            guard rest.hasPrefix(":"), let number = Int(rest.dropFirst()), (1...65535).contains(number) else { return nil }
            port = number
        }
        guard !name.isEmpty else { return nil }
    }
}

/// A listener's port, known once it is bound (port 0 picks one).
final class ListeningPort: Sendable {
    private let port: Mutex<Int?>

    init(_ port: Int?) { self.port = Mutex(port) }

    var value: Int? { port.withLock { $0 } }

    func set(_ value: Int) { port.withLock { $0 = value } }
}
