import Hummingbird
import WaymarkCore
import WaymarkStore

extension APIServer {
    /// `GET /v1/history/days?device=NAME&tz=ZONE`: the local days of `tz` on which the device has
    /// fixes, oldest first, with their counts (the web page's calendar and default range).
    /// 400 naming the parameter, 404 `no-device`.
    static func addHistoryDayRoutes(to routes: inout RouteTable<BasicRequestContext>, backend: some DaemonBackend) {
        routes.add("/v1/history/days", .get) { request, _ in
            let query = try HistoryDaysQuery(request.uri.queryParameters)
            let days = try await backend.fixDays(device: query.device, timeZone: query.timeZone)
            var w = JSONObjectWriter()
            w.add("device", query.device)
            w.add("timeZone", query.zoneName)
            w.addRaw("days", "[" + days.map(\.json).joined(separator: ",") + "]")
            return json(w.object)
        }
    }
}
