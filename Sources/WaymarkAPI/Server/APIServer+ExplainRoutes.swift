import Hummingbird
import WaymarkCore

extension APIServer {
    /// `GET /v1/events/{id}/explain[?format=json|text]`: why a stored region or beacon event
    /// happened (docs/explain.md). 404 `no-event` for an unknown id.
    static func addExplainRoutes(to routes: inout RouteTable<BasicRequestContext>, backend: some DaemonBackend) {
        routes.add("/v1/events/:id/explain", .get) { request, context in
            let parameters = request.uri.queryParameters
            for (name, _) in parameters where name != "format" {
                throw APIError.invalidParameter(String(name), "unknown parameter; /v1/events/{id}/explain takes format")
            }
            let format = parameters.get("format") ?? "json"
            guard format == "json" || format == "text" else {
                throw APIError.invalidParameter("format", "\"\(format)\" is not json or text")
            }
            guard let raw = context.parameters.get("id"), let id = Int64(raw), id > 0 else {
                throw APIError(
                    .badRequest, code: "invalid-identifier",
                    message: "an event id is a positive whole number (the id `GET /v1/events` gives), got \"\(context.parameters.get("id") ?? "")\"")
            }
            guard let answer = try await backend.explainEvent(id: id) else {
                throw APIError.notFound("no event \(id) (unknown, or pruned from the history)", code: "no-event")
            }
            if format == "text" {
                return json(answer.text + "\n", contentType: "text/plain; charset=utf-8")
            }
            return json(answer.json)
        }
    }
}
