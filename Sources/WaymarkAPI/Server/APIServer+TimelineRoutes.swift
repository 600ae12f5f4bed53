import Hummingbird
import WaymarkTimelineJob

extension APIServer {
    /// `GET /v1/timeline?device=NAME&day=YYYY-MM-DD` (or `&from=…&to=…`): the device's stays and
    /// trips with place names and local times, as `waymark timeline --json` prints them
    /// (docs/timeline/web.md). 400 naming the parameter, 404 `no-device`.
    static func addTimelineRoutes(to routes: inout RouteTable<BasicRequestContext>, backend: some DaemonBackend) {
        routes.add("/v1/timeline", .get) { request, _ in
            let query = try TimelineQuery(request.uri.queryParameters)
            let timeline = try await backend.timeline(query.request)
            return json(timeline.json)
        }
    }
}
