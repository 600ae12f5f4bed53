import Hummingbird
import WaymarkCore

extension APIServer {
    /// `GET /v1/export`: a device's history as a file, through the export code (the web page's
    /// downloads and statistics).
    static func addExportRoutes(to routes: inout RouteTable<BasicRequestContext>, backend: some DaemonBackend) {
        routes.add("/v1/export", .get) { request, _ in
            let query = try ExportQuery(request.uri.queryParameters)
            let bytes = try await backend.export(query.request)
            var headers: HTTPFields = [.contentType: query.request.format.contentType]
            if query.request.format != .stats {
                headers[.contentDisposition] = "attachment; filename=\"\(query.request.device).\(query.request.format.rawValue)\""
            }
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        }
    }
}
