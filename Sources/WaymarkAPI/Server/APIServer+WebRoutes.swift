import Hummingbird
import WaymarkCore

extension APIServer {
    /// The web page (issue 20): `/` and `/web/NAME` from the files embedded at build time
    /// (`WebAssets`), `/web/leaflet/…` from Leaflet's directory, and `GET /v1/web` for what the
    /// page is configured with. The page's files hold no data, so they are served without the
    /// token (`BearerTokenMiddleware.isPublic`); everything the page shows comes from the API.
    static func addWebRoutes(to routes: inout RouteTable<BasicRequestContext>, configuration: Configuration) {
        routes.router.add(
            middleware: FileMiddleware(
                configuration.web.leafletDirectory, urlBasePath: "/web/leaflet", searchForIndexHtml: false))
        if let directory = configuration.web.pageDirectory {
            // Working on the page: every page file from the directory, none from the binary
            // (FileMiddleware serves only what the routes behind it leave unanswered).
            routes.router.add(middleware: FileMiddleware(directory, urlBasePath: "/web", searchForIndexHtml: false))
            routes.router.add(middleware: FileMiddleware(directory, urlBasePath: "/", searchForIndexHtml: true))
        } else {
            routes.add("/", .get) { _, _ in try asset("index.html") }
            routes.add("/web/:file", .get) { _, context in try asset(context.parameters.get("file") ?? "") }
        }
        routes.add("/v1/web", .get) { _, _ in json(configuration.web.json(basemap: configuration.basemap)) }
        routes.add("/v1/tiles/:z/:x/:y", .get) { _, context in
            guard let basemap = configuration.basemap else {
                throw APIError.notFound("no basemap: none is configured (web.basemap) or installed", code: "no-basemap")
            }
            let parameters = context.parameters
            guard let z = parameters.get("z").flatMap({ Int($0) }), let x = parameters.get("x").flatMap({ Int($0) }),
                let y = parameters.get("y").flatMap({ Int($0) })
            else {
                throw APIError(.badRequest, code: "invalid-tile", message: "a tile is /v1/tiles/Z/X/Y with whole numbers")
            }
            // A place the file has no tile for is empty, not an error: maps ask for many.
            guard let image = try await basemap.tile(zoom: z, x: x, y: y) else { return Response(status: .noContent) }
            return Response(
                status: .ok, headers: [.contentType: basemap.contentType, .cacheControl: "private, max-age=3600"],
                body: .init(byteBuffer: ByteBuffer(bytes: image)))
        }
    }

    private static func asset(_ name: String) throws(APIError) -> Response {
        guard let file = WebAssets.files[name] else { throw APIError.notFound("no page file \"\(name)\"") }
        return Response(
            status: .ok, headers: [.contentType: file.contentType, .cacheControl: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(bytes: file.bytes)))
    }
}
