import Foundation
import Hummingbird
import WaymarkImportJob

extension APIServer {
    /// `POST /v1/imports?device=NAME`: the body (any format `waymark import` reads, zip
    /// included) streamed to a private file beside the database, then imported on a thread of
    /// its own; 202 with the import's id once it has begun. `GET /v1/imports[/{id}]`: progress
    /// and records (docs/import/api.md).
    static func addImportRoutes(
        to routes: inout RouteTable<BasicRequestContext>, backend: some DaemonBackend, configuration: Configuration
    ) {
        routes.add("/v1/imports", .post) { request, context in
            let query = try ImportUploadQuery(request.uri.queryParameters)
            let imports = try await backend.imports()
            let limit = configuration.maximumUploadSize
            if let length = request.headers[.contentLength].flatMap({ Int64($0) }), length > limit { throw UploadBody.tooLarge(limit) }
            let slot = try imports.reserve(device: query.device)
            let path = slot.folder + "/" + query.name
            let body = UploadBody(body: request.body, limit: limit)
            do {
                try await FileIO().writeFile(contents: body, path: path, context: context)
            } catch {
                imports.release(slot)
                if body.count.isOverLimit { throw UploadBody.tooLarge(limit) }
                throw error
            }
            guard body.count.bytes > 0 else {
                imports.release(slot)
                throw APIError(
                    .badRequest, code: "empty-body",
                    message: "the body is empty; send the file's bytes (curl --data-binary @FILE)")
            }
            let importRequest = ImportRequest(paths: [path], device: query.device, deliver: query.deliver, columns: query.columns)
            let progress = try await imports.start(importRequest, slot: slot, name: query.name)
            context.logger.info(
                "import started", metadata: ["import.id": "\(progress.importID ?? 0)", "device": "\(query.device)", "bytes": "\(body.count.bytes)"])
            var response = json(imports.started(progress, device: query.device, name: query.name), status: .accepted)
            response.headers[.location] = "/v1/imports/\(progress.importID ?? 0)"
            return response
        }
        routes.add("/v1/imports", .get) { request, _ in
            let parameters = request.uri.queryParameters
            for (name, _) in parameters where name != "device" {
                throw APIError.invalidParameter(String(name), "unknown parameter; /v1/imports takes device")
            }
            let device = parameters.get("device")
            if let device, device.isEmpty { throw APIError.invalidParameter("device", "must not be empty") }
            return json(try await backend.imports().list(device: device))
        }
        routes.add("/v1/imports/:id", .get) { request, context in
            for (name, _) in request.uri.queryParameters {
                throw APIError.invalidParameter(String(name), "unknown parameter; /v1/imports/{id} takes none")
            }
            guard let raw = context.parameters.get("id"), let id = Int64(raw), id > 0 else {
                throw APIError(
                    .badRequest, code: "invalid-identifier",
                    message: "an import id is a positive whole number (the id `POST /v1/imports` gives), got \"\(context.parameters.get("id") ?? "")\"")
            }
            guard let answer = try await backend.imports().answer(id: id) else {
                throw APIError.notFound("no import \(id); GET /v1/imports lists them", code: "no-import")
            }
            return json(answer)
        }
    }
}
