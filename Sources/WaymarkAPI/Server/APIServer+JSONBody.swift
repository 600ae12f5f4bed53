import Hummingbird

extension APIServer {
    /// A request's JSON body, at most `limit` bytes (413 beyond, from Hummingbird). Accepted:
    /// `application/json`, `application/geo+json` or any `…/…+json` media type, with or without
    /// parameters (`; charset=utf-8`). A body without a Content-Type, or one that says it is
    /// something else (curl's `-d` alone says `application/x-www-form-urlencoded`, a form on
    /// another origin's page `text/plain`), is refused with 415 `unsupported-media-type`, naming
    /// the header to send, rather than parsed as JSON anyway: no browser sends a JSON type to
    /// another origin without asking first (a CORS preflight, which this API never grants).
    static func jsonBody(_ request: inout Request, limit: Int) async throws -> ByteBuffer {
        guard let type = request.headers[.contentType] else {
            throw APIError(
                .unsupportedMediaType, code: "unsupported-media-type",
                message: "the body has no Content-Type; send JSON with Content-Type: application/json")
        }
        guard isJSON(mediaType: type) else {
            throw APIError(
                .unsupportedMediaType, code: "unsupported-media-type",
                message: "the body is '\(type)'; send JSON with Content-Type: application/json")
        }
        return try await request.collectBody(upTo: limit)
    }

    /// Largest push data (`POST /v1/handlers/{name}/notify`), bytes: APNs' 4 KB.
    static let maximumPushBytes = 4096

    static func isJSON(mediaType: String) -> Bool {
        let essence = mediaType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        return essence == "application/json" || essence == "application/geo+json"
            || (essence.hasSuffix("+json") && essence.split(separator: "/").count == 2)
    }
}
