import Foundation
import Hummingbird
import WaymarkCore
import WaymarkGeoJSON
import WaymarkRegions
import WaymarkStore

extension APIServer {
    /// The API's routes over `backend`, with JSON errors, 404 for unknown paths and 405 (with
    /// `Allow`) for known paths asked with another method. With a `token`, every request must
    /// carry `Authorization: Bearer TOKEN` (the TCP listener); without, none is asked (the Unix
    /// socket, whose file mode is its access control).
    public static func makeRouter(
        backend: some DaemonBackend, configuration: Configuration, token: String? = nil
    ) -> Router<BasicRequestContext> {
        makeRouter(backend: backend, configuration: configuration, token: token, tcpPort: ListeningPort(nil))
    }

    /// `tcpPort`: the TCP listener's port, which its requests' `Host` must name once known
    /// (`SameOriginMiddleware`); the router without a `token` is the Unix socket's.
    static func makeRouter(
        backend: some DaemonBackend, configuration: Configuration, token: String?, tcpPort: ListeningPort
    ) -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: SecurityHeadersMiddleware(headers: SecurityHeaders(tiles: configuration.basemap == nil ? configuration.web.tiles : nil)))
        router.add(middleware: APIErrorMiddleware())
        router.add(middleware: SameOriginMiddleware(listener: token == nil ? .unixSocket : .tcp(port: tcpPort)))
        if let token { router.add(middleware: BearerTokenMiddleware(token: token)) }
        var routes = RouteTable(router: router)

        let health = "{\"status\":\"ok\",\"tokenRequired\":\(token != nil)}"
        routes.add("/v1/health", .get) { _, _ in json(health) }
        routes.add("/v1/status", .get) { _, _ in json(await backend.status().json) }
        routes.add("/v1/fixes/last", .get) { request, _ in
            let device = try deviceParameter(request.uri.queryParameters, of: "/v1/fixes/last")
            guard let fix = try await backend.lastFix(device: device) else {
                throw APIError.notFound("no fix has been recorded from device \"\(device)\" yet", code: "no-fix")
            }
            return json(fix.json)
        }
        for (path, kinds) in [("/v1/history", nil), ("/v1/fixes", ["fix"] as Set), ("/v1/events", ["event"])] {
            routes.add(RouterPath(stringLiteral: path), .get) { request, _ in
                let query = try HistoryQuery(request.uri.queryParameters, presetKinds: kinds)
                let entries = try await backend.history(query.request)
                return json(query.body(entries), contentType: query.format == .geojson ? "application/geo+json" : "application/json")
            }
        }

        routes.add("/v1/power", .get) { request, _ in
            let query = try PowerQuery(request.uri.queryParameters)
            if let device = query.device {
                let buckets = try await backend.phoneEnergy(device: device, since: query.since)
                return json(PhoneEnergyReport(device: device, buckets: buckets, since: query.since).json)
            }
            let buckets = try await backend.energy(since: query.since)
            return json(EnergyReport(buckets: buckets, since: query.since, by: query.by).json)
        }

        routes.add("/v1/regions", .get) { request, _ in
            let parameters = request.uri.queryParameters
            for (name, _) in parameters where name != "format" {
                throw APIError.invalidParameter(String(name), "unknown parameter; /v1/regions takes format")
            }
            let regions = try await backend.regions()
            switch parameters.get("format") ?? "json" {
            case "json":
                return json("{\"regions\":[" + regions.map(\.summaryJSON).joined(separator: ",") + "]}")
            case "geojson":
                // Every region with its geometry, as `GET /v1/regions/{id}` gives one (the web page's map).
                let features = regions.map(\.geoJSONFeature).joined(separator: ",")
                return json("{\"type\":\"FeatureCollection\",\"features\":[" + features + "]}", contentType: "application/geo+json")
            case let other:
                throw APIError.invalidParameter("format", "\"\(other)\" is not json or geojson")
            }
        }
        routes.add("/v1/regions", .post) { request, context in
            let replace = try boolParameter(request.uri.queryParameters, "replace")
            let idProperty = request.uri.queryParameters.get("id-property")
            if let idProperty, idProperty.isEmpty { throw APIError.invalidParameter("id-property", "must not be empty") }
            var request = request
            let body = try await Self.jsonBody(&request, limit: configuration.maximumBodySize)
            // A GeoJSONError becomes a 400 with its location in APIErrorMiddleware.
            let decoded = try GeoJSONRegionDecoder(idProperty: idProperty).decode(Array(buffer: body), file: "request body")
            let report = try await backend.importRegions(decoded.map(\.region), replace: replace)
            context.logger.info(
                "regions imported",
                metadata: ["regions.inserted": "\(report.inserted.count)", "regions.replaced": "\(report.replaced.count)"])
            return json(report.json, status: .created)
        }
        routes.add("/v1/regions/:id", .get) { _, context in
            let id = try regionIdentifier(context)
            guard let region = try await backend.regions().first(where: { $0.identifier == id }) else {
                throw APIError.notFound("no region \"\(id)\"", code: "no-region")
            }
            return json(region.geoJSONFeatureWithOptions, contentType: "application/geo+json")
        }
        routes.add("/v1/regions/:id", .delete) { _, context in
            let id = try regionIdentifier(context)
            guard try await backend.removeRegion(identifier: id) else {
                throw APIError.notFound("no region \"\(id)\"", code: "no-region")
            }
            context.logger.info("region removed", metadata: ["region.id": "\(id)"])
            return Response(status: .noContent)
        }
        routes.add("/v1/regions/:id/state", .get) { request, context in
            let id = try regionIdentifier(context)
            let device = try deviceParameter(request.uri.queryParameters, of: "/v1/regions/{id}/state")
            guard let state = try await backend.regionState(identifier: id, device: device) else {
                throw APIError.notFound("no region \"\(id)\"", code: "no-region")
            }
            return json(state.json)
        }

        routes.add("/v1/handlers", .get) { _, _ in
            json("{\"handlers\":[" + (await backend.handlers()).joined(separator: ",") + "]}")
        }
        routes.add("/v1/handlers", .post) { request, _ in
            let replace = try boolParameter(request.uri.queryParameters, "replace")
            var request = request
            let body = try await Self.jsonBody(&request, limit: configuration.maximumBodySize)
            return json(try await backend.registerHandler(Array(buffer: body), replace: replace), status: .created)
        }
        routes.add("/v1/handlers/:name", .delete) { _, context in
            let name = try handlerName(context)
            guard try await backend.removeHandler(name: name) else {
                throw APIError.notFound("no handler \"\(name)\"", code: "no-handler")
            }
            return Response(status: .noContent)
        }
        routes.add("/v1/handlers/reload", .post) { _, _ in
            try await backend.reloadHandlers()
            return json("{\"handlers\":[" + (await backend.handlers()).joined(separator: ",") + "]}")
        }
        routes.add("/v1/handlers/:name/notify", .post) { request, context in
            let name = try handlerName(context)
            var request = request
            let body = try await Self.jsonBody(&request, limit: Self.maximumPushBytes)
            let data = String(buffer: body)
            guard (try? JSONSerialization.jsonObject(with: Data(data.utf8), options: .fragmentsAllowed)) != nil else {
                throw APIError(.badRequest, code: "invalid-json", message: "the body must be one JSON value (the push's data)")
            }
            switch try await backend.pushHandler(name: name, data: data) {
            case .queued(let id):
                return json("{\"id\":\(id)}", status: .accepted)
            case .noHandler:
                throw APIError.notFound("no handler \"\(name)\"", code: "no-handler")
            case .rateLimited(let wait):
                let seconds = max(1, Int(wait.rounded(.up)))
                throw APIError(
                    .tooManyRequests, code: "rate-limited",
                    message: "too many pushes for handler \"\(name)\": 5 at once, then one per 10 s; try again in \(seconds) s",
                    headers: [.retryAfter: "\(seconds)"])
            }
        }
        for command in HandlerCommand.allCases {
            routes.add(RouterPath(stringLiteral: "/v1/handlers/:name/" + command.rawValue), .post) { _, context in
                let name = try handlerName(context)
                guard try await backend.handler(command, name: name) else {
                    throw APIError.notFound("no handler \"\(name)\"", code: "no-handler")
                }
                return Response(status: .noContent)
            }
        }

        addDeviceRoutes(to: &routes, backend: backend, configuration: configuration)
        addExportRoutes(to: &routes, backend: backend)
        addTimelineRoutes(to: &routes, backend: backend)
        addHistoryDayRoutes(to: &routes, backend: backend)
        addImportRoutes(to: &routes, backend: backend, configuration: configuration)
        addExplainRoutes(to: &routes, backend: backend)
        addDisagreementRoutes(to: &routes, backend: backend)
        addWebRoutes(to: &routes, configuration: configuration)
        addOutputRoutes(to: &routes, backend: backend, configuration: configuration)

        routes.add("/v1/stream", .get) { request, _ in
            let devices = try HistoryQuery.devices(request.uri.queryParameters)
            let live = await backend.live()
            let heartbeat = configuration.heartbeatInterval
            let headers: HTTPFields = [.contentType: "text/event-stream", .cacheControl: "no-cache"]
            return Response(
                status: .ok, headers: headers,
                body: ResponseBody { writer in
                    try await request.body.consumeWithCancellationOnInboundClose { _ in
                        try await ServerSentEvents.write(live, devices: devices, heartbeat: heartbeat, to: &writer)
                    }
                    try await writer.finish(nil)
                })
        }

        routes.add("/metrics", .get) { _, _ in
            let text = await backend.status().prometheusText
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: text)))
        }

        routes.addMethodNotAllowed()
        return router
    }

    static func json(_ text: String, status: HTTPResponse.Status = .ok, contentType: String = "application/json")
        -> Response
    {
        Response(status: status, headers: [.contentType: contentType], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    private static func regionIdentifier(_ context: BasicRequestContext) throws(APIError) -> String {
        guard let raw = context.parameters.get("id"), let id = percentDecoded(raw), !id.isEmpty else {
            throw APIError(.badRequest, code: "invalid-identifier", message: "region identifier is not valid percent-encoded UTF-8")
        }
        return id
    }

    private static func handlerName(_ context: BasicRequestContext) throws(APIError) -> String {
        guard let raw = context.parameters.get("name"), let name = percentDecoded(raw), !name.isEmpty else {
            throw APIError(.badRequest, code: "invalid-identifier", message: "handler name is not valid percent-encoded UTF-8")
        }
        return name
    }

    /// `?device=NAME` of a per-device read (docs/devices.md), `local` (the receiver) when absent;
    /// any other parameter is refused.
    private static func deviceParameter(_ parameters: Parameters, of path: String) throws(APIError) -> String {
        for (name, _) in parameters where name != "device" {
            throw APIError.invalidParameter(String(name), "unknown parameter; \(path) takes device")
        }
        guard let device = parameters.get("device") else { return "local" }
        guard !device.isEmpty else { throw APIError.invalidParameter("device", "must not be empty") }
        return device
    }

    private static func boolParameter(_ parameters: Parameters, _ name: String) throws(APIError) -> Bool {
        switch parameters.get(name) {
        case nil, "false", "0": return false
        case "true", "1", "": return true
        case let value?: throw APIError.invalidParameter(name, "\"\(value)\" is not true or false")
        }
    }

    /// `%XX` sequences decoded as UTF-8; `nil` for a malformed sequence.
    static func percentDecoded(_ text: String) -> String? {
        guard text.contains("%") else { return text }
        var bytes: [UInt8] = []
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = utf8.next().flatMap(hexValue), let low = utf8.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// Registers routes and remembers each path's methods, so every other method on a known path
/// answers 405 with `Allow` instead of the router's 404.
struct RouteTable<Context: RequestContext> {
    let router: Router<Context>
    private var methods: [(path: String, methods: [HTTPRequest.Method])] = []

    init(router: Router<Context>) { self.router = router }

    mutating func add(
        _ path: RouterPath, _ method: HTTPRequest.Method,
        _ handler: @escaping @Sendable (Request, Context) async throws -> Response
    ) {
        router.on(path, method: method, use: handler)
        let key = path.description
        if let i = methods.firstIndex(where: { $0.path == key }) {
            methods[i].methods.append(method)
        } else {
            methods.append((key, [method]))
        }
    }

    func addMethodNotAllowed() {
        let all: [HTTPRequest.Method] = [.get, .head, .post, .put, .patch, .delete, .options]
        for (path, allowed) in methods {
            let allow = allowed.map(\.rawValue).joined(separator: ", ")
            for method in all where !allowed.contains(method) {
                router.on(RouterPath(stringLiteral: path), method: method) { request, _ -> Response in
                    throw APIError(
                        .methodNotAllowed, code: "method-not-allowed",
                        message: "\(request.method.rawValue) is not allowed on \(request.uri.path); use \(allow)",
                        headers: [.allow: allow])
                }
            }
        }
    }
}

extension ImportReport {
    /// `{"imported":n,"inserted":[…],"replaced":[…],"rejected":[{"identifier":…,"reason":…}]}`
    var json: String {
        var w = JSONObjectWriter()
        w.add("imported", importedCount)
        w.add("inserted", inserted)
        w.add("replaced", replaced)
        let rejected = rejected.map { r -> String in
            var o = JSONObjectWriter()
            o.add("identifier", r.identifier)
            o.add("reason", r.reason)
            return o.object
        }
        w.addRaw("rejected", "[" + rejected.joined(separator: ",") + "]")
        return w.object
    }
}
