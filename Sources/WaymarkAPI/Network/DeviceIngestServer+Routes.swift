import HTTPTypes
import Hummingbird
import WaymarkCore
import WaymarkDevices
import WaymarkSources

extension DeviceIngestServer {
    /// The listener's routes: `POST /v1/owntracks`, `GET|POST /v1/osmand`, `GET /v1/health`,
    /// JSON errors (docs/devices.md). Every position route authenticates the device before it
    /// says anything about the body: an unauthenticated client learns nothing but 401.
    static func makeRouter(
        backend: any DeviceIngestBackend, configuration: Configuration, deadlines: BodyDeadlines
    ) -> Router<DeviceRequestContext> {
        let router = Router(context: DeviceRequestContext.self)
        if let count = configuration.onTraffic { router.add(middleware: TrafficMiddleware(count: count)) }
        router.add(middleware: APIErrorMiddleware())
        var routes = RouteTable(router: router)
        let unauthenticated = UnauthenticatedReads(limit: configuration.unauthenticatedReads)
        routes.add("/v1/health", .get) { _, _ in APIServer.json("{\"status\":\"ok\"}") }
        routes.add("/v1/owntracks", .post) { request, context in
            let parameters = request.uri.queryParameters
            let named = request.headers[Self.limitDevice] ?? parameters.get("d")
            let head = try await refusingUnread(request, context) { try await authenticateHead(request, claimed: named, backend: backend) }
            let body = try await readBody(
                request, context: context, configuration: configuration, deadlines: deadlines,
                unauthenticated: head == nil ? unauthenticated : nil)
            return try await ownTracks(request, body: body, authenticated: head, backend: backend)
        }
        for method in [HTTPRequest.Method.get, .post] {
            routes.add("/v1/osmand", method) { request, context in
                let parameters = request.uri.queryParameters
                let named = parameters.get("id") ?? parameters.get("deviceid")
                let head = try await refusingUnread(request, context) {
                    try await authenticateHead(request, claimed: named, backend: backend, tokenParameter: true)
                }
                let body = request.method == .post
                    ? try await readBody(
                        request, context: context, configuration: configuration, deadlines: deadlines,
                        unauthenticated: head == nil ? unauthenticated : nil) : []
                return try await osmAnd(request, body: body, authenticated: head, backend: backend)
            }
        }
        routes.addMethodNotAllowed()
        return router
    }

    /// OwnTracks' HTTP mode: the device is named by `X-Limit-D` (the apps send it), `?d=`, or the
    /// messages' `topic`; the user likewise by `X-Limit-U`, `?u=` or the topic. Every message's
    /// topic must name the authenticated device and its user. Locations and every message goes
    /// to the device's pipeline (docs/devices.md says what each kind does). The answer is `[]`,
    /// or `setWaypoints` with Waymark's regions.
    static func ownTracks(
        _ request: Request, body: [UInt8], authenticated: Device?, backend: any DeviceIngestBackend
    ) async throws -> Response {
        let decoded = Result { () throws(OwnTracksError) in try OwnTracksDecoder.decode(body) }
        let topics = ((try? decoded.get()) ?? []).compactMap(\.topic).compactMap { OwnTracksTopic($0) }
        let parameters = request.uri.queryParameters
        let claimedDevice = request.headers[Self.limitDevice] ?? parameters.get("d") ?? topics.first?.device
        let claimedUser = request.headers[Self.limitUser] ?? parameters.get("u") ?? topics.first?.user
        let device: Device
        if let authenticated {
            device = authenticated
        } else {
            device = try await authenticate(request, claimed: claimedDevice, backend: backend)
        }
        for user in [claimedUser].compactMap({ $0 }) + topics.map(\.user) where user != device.user && user != device.name {
            await backend.countRefusal("forbidden", device: device.name)
            throw APIError(.forbidden, code: "forbidden", message: "device '\(device.name)' belongs to user '\(device.user)', not '\(user)'")
        }
        if let other = topics.first(where: { $0.device != device.name }) {
            await backend.countRefusal("forbidden", device: device.name)
            throw APIError(.forbidden, code: "forbidden", message: "authenticated as device '\(device.name)', which may not write device '\(other.device)'")
        }
        let messages: [OwnTracksMessage]
        switch decoded {
        case .success(let value): messages = value
        case .failure(let error):
            await backend.countRefusal("owntracks.\(error.code.rawValue)", device: device.name)
            throw APIError(error)
        }
        try await backend.ingest(ownTracks: messages, device: device.name)
        let reply = try await backend.ownTracksReply(device: device.name, after: messages)
        await backend.exchanged(device: device.name, ownTracks: messages, requestBytes: body.count, replyBytes: reply.utf8.count)
        return APIServer.json(reply)
    }

    /// The OsmAnd protocol: parameters in the query string, or a form body when there is one.
    /// The device is named by `id` (or `deviceid`); credentials come as `Authorization` or, for
    /// clients that can only build a URL, as the `token` query parameter (the device's secret).
    static func osmAnd(
        _ request: Request, body: [UInt8], authenticated: Device?, backend: any DeviceIngestBackend
    ) async throws -> Response {
        // The protocol's speed is knots; OsmAnd fills its `{5}` with m/s, so its URL template
        // says `speedunit=mps` (docs/devices.md).
        let decoder = OsmAndDecoder(speedUnit: request.uri.queryParameters.get("speedunit") == "mps" ? .metresPerSecond : .knots)
        let decoded = Result { () throws(OsmAndError) in
            body.isEmpty ? try decoder.decode(query: request.uri.query ?? "") : try decoder.decode(formBody: body)
        }
        let claimed = (try? decoded.get())?.deviceID
        let device: Device
        if let authenticated {
            if let claimed, claimed != authenticated.name {
                await backend.countRefusal("forbidden", device: nil)
                throw APIError(.forbidden, code: "forbidden", message: "authenticated as device '\(authenticated.name)', which may not write device '\(claimed)'")
            }
            device = authenticated
        } else {
            device = try await authenticate(request, claimed: claimed, backend: backend, tokenParameter: true)
        }
        switch decoded {
        case .success(let report):
            try await backend.ingest([report.fix], device: device.name)
            await backend.exchanged(
                device: device.name, ownTracks: nil, requestBytes: body.isEmpty ? (request.uri.query ?? "").utf8.count : body.count, replyBytes: 0)
            return Response(status: .ok)
        case .failure(let error):
            await backend.countRefusal("osmand.\(error.code.rawValue)", device: device.name)
            throw APIError(error)
        }
    }

    static let limitUser = HTTPField.Name("X-Limit-U")!
    static let limitDevice = HTTPField.Name("X-Limit-D")!

    /// The device the request proves it is (docs/devices.md), or a 401/403.
    static func authenticate(
        _ request: Request, claimed: String?, backend: any DeviceIngestBackend, tokenParameter: Bool = false
    ) async throws -> Device {
        let credentials = try await credentials(of: request, backend: backend, tokenParameter: tokenParameter)
        var named: Device?
        var bySecret: Device?
        switch credentials {
        case .bearer(let secret): bySecret = try await backend.device(withSecret: DeviceSecret.hash(secret))
        case .basic(let user, _): named = try await backend.device(named: claimed ?? user)
        }
        let authentication = DeviceAuthentication(
            device: { name in named?.name == name ? named : nil }, deviceWithSecret: { _ in bySecret })
        do {
            return try authentication.authenticate(credentials, claimed: claimed)
        } catch {
            // Not under the name the request claims: anyone can claim any name, and each would be a metric label.
            await backend.countRefusal(error.status == .forbidden ? "forbidden" : "unauthorized", device: nil)
            switch error.status {
            case .unauthorized: throw APIError(.unauthorized, code: "unauthorized", message: error.message, headers: challenge)
            case .forbidden: throw APIError(.forbidden, code: "forbidden", message: error.message)
            }
        }
    }

    /// Authentication from the request's head alone, before a byte of its body is read
    /// (docs/security.md, "Work before authentication"): the device, or nil when only the body
    /// can tell (Basic credentials whose user is a person, with the device named only in the
    /// body's topic or form). A request with no credentials, with a bearer token that is no
    /// device's, or with a device named in its head that the credentials do not open is refused
    /// here, its body never read.
    static func authenticateHead(
        _ request: Request, claimed: String?, backend: any DeviceIngestBackend, tokenParameter: Bool = false
    ) async throws -> Device? {
        let credentials = try await credentials(of: request, backend: backend, tokenParameter: tokenParameter)
        if case .basic(let user, _) = credentials, claimed == nil {
            // The device may be named in the body: only a Basic user that opens the device of
            // its own name is settled here; the rest wait for the body.
            let named = try await backend.device(named: user)
            let authentication = DeviceAuthentication(device: { $0 == named?.name ? named : nil }, deviceWithSecret: { _ in nil })
            return try? authentication.authenticate(credentials, claimed: nil)
        }
        return try await authenticate(request, claimed: claimed, backend: backend, tokenParameter: tokenParameter)
    }

    /// `authenticate`'s device; when it refuses, the connection's input is closed too. Answering
    /// 401 is not enough: the server would then read the rest of the body to reuse the
    /// connection, and 6,000 clients sending 60 KB bodies they may not send held 270 MB that way
    /// (BENCHMARKS.md, "Unauthenticated flood"). With the input closed, the body stays in the
    /// kernel's buffers until the connection closes after the answer.
    static func refusingUnread<T>(_ request: Request, _ context: DeviceRequestContext, _ authenticate: () async throws -> T) async throws -> T {
        do {
            return try await authenticate()
        } catch {
            if request.headers[.contentLength].map({ $0 != "0" }) ?? (request.headers[.transferEncoding] != nil) {
                context.channel.close(mode: .input, promise: nil)
            }
            throw error
        }
    }

    /// The request's credentials: its `Authorization`, or for OsmAnd clients that can only build
    /// a URL the `token` query parameter. None at all is a 401.
    static func credentials(
        of request: Request, backend: any DeviceIngestBackend, tokenParameter: Bool
    ) async throws -> DeviceCredentials {
        var credentials: DeviceCredentials?
        do {
            credentials = try DeviceCredentials.parse(authorization: request.headers[.authorization])
        } catch {
            await backend.countRefusal("unauthorized", device: nil)
            throw APIError(.unauthorized, code: "unauthorized", message: error.description, headers: challenge)
        }
        if credentials == nil, tokenParameter, let token = request.uri.queryParameters.get("token"), !token.isEmpty {
            credentials = .bearer(secret: String(token))
        }
        guard let credentials else {
            await backend.countRefusal("unauthorized", device: nil)
            throw APIError(
                .unauthorized, code: "unauthorized",
                message: "credentials required: a device's secret as a bearer token or a Basic password", headers: challenge)
        }
        return credentials
    }

    static let challenge: HTTPFields = [.wwwAuthenticate: "Basic realm=\"waymark\", Bearer"]

    /// The whole body, at most `maximumBodySize` bytes (413 beyond), within `bodyTimeout` (408
    /// after, kept to within a second by `BodyDeadlines`: a client that trickles its body, or
    /// stops sending it, does not hold a request open). A body read before its request is
    /// authenticated takes a place in `unauthenticated`, and is answered 503 when none is free.
    static func readBody(
        _ request: Request, context: DeviceRequestContext, configuration: Configuration, deadlines: BodyDeadlines,
        unauthenticated: UnauthenticatedReads?
    ) async throws -> [UInt8] {
        if let unauthenticated {
            guard unauthenticated.begin() else {
                context.channel.close(mode: .input, promise: nil)
                throw APIError(
                    .serviceUnavailable, code: "busy",
                    message: "too many requests name their device only in the body; name it in X-Limit-D, ?d= or ?id=, or retry",
                    headers: [.retryAfter: "1"])
            }
        }
        defer { unauthenticated?.end() }
        let reading = deadlines.begin(on: context.channel)
        let body: Result<[UInt8], any Error>
        do {
            var request = request
            body = .success(Array(buffer: try await request.collectBody(upTo: configuration.maximumBodySize)))
        } catch {
            body = .failure(error)
        }
        if deadlines.finish(reading) {
            throw APIError(.requestTimeout, code: "body-timeout", message: "the request body did not arrive within \(configuration.bodyTimeout)")
        }
        return try body.get()
    }
}

extension APIError {
    /// A 400 naming the member and where it is in the body.
    init(_ error: OwnTracksError) {
        self.init(
            .badRequest, code: "owntracks.\(error.code.rawValue)", message: error.description,
            details: [("field", JSONObjectWriter.quoted(error.field)), ("line", "\(error.line)"), ("column", "\(error.column)")])
    }

    /// A 400 naming the parameter.
    init(_ error: OsmAndError) {
        self.init(.badRequest, code: "osmand.\(error.code.rawValue)", message: error.description, details: [("parameter", JSONObjectWriter.quoted(error.field))])
    }
}
