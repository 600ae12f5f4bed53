import Hummingbird
import WaymarkCore
import WaymarkGeoJSON
import WaymarkStore

/// An error answered as `{"error":{"code":"…","message":"…",…}}` with an HTTP status.
///
/// `code` is stable (clients match on it); `message` says what to do about it. `details` are
/// extra members of the `error` object, already JSON (a GeoJSON error's `location` and `path`,
/// a store error's `rejected` regions).
public struct APIError: Error, Sendable, Equatable, CustomStringConvertible {
    public var status: HTTPResponse.Status
    public var code: String
    public var message: String
    public var details: [(key: String, json: String)]
    /// Extra response headers (`Allow` on 405, `WWW-Authenticate` on 401).
    public var headers: HTTPFields

    public init(
        _ status: HTTPResponse.Status, code: String, message: String, details: [(key: String, json: String)] = [],
        headers: HTTPFields = [:]
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.details = details
        self.headers = headers
    }

    public static func == (lhs: APIError, rhs: APIError) -> Bool {
        lhs.status == rhs.status && lhs.code == rhs.code && lhs.message == rhs.message
            && lhs.details.map(\.key) == rhs.details.map(\.key) && lhs.details.map(\.json) == rhs.details.map(\.json)
    }

    public var description: String { "\(status.code) \(code): \(message)" }

    /// The response body.
    public var json: String {
        var e = JSONObjectWriter()
        e.add("code", code)
        e.add("message", message)
        for (key, value) in details { e.addRaw(key, value) }
        var w = JSONObjectWriter()
        w.addRaw("error", e.object)
        return w.object
    }

    public var response: Response {
        var fields = headers
        fields[.contentType] = "application/json"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(string: json + "\n")))
    }

    static func notFound(_ message: String, code: String = "not-found") -> APIError {
        APIError(.notFound, code: code, message: message)
    }

    /// 404 `no-device`: a per-device read (`?device=`) named a device the daemon does not know.
    public static func noDevice(_ name: String) -> APIError {
        APIError(.notFound, code: "no-device", message: "no device \"\(name)\"; `waymark devices list` shows the known ones")
    }

    static func invalidParameter(_ name: String, _ message: String) -> APIError {
        APIError(
            .badRequest, code: "invalid-parameter", message: "\(name): \(message)",
            details: [("parameter", JSONObjectWriter.quoted(name))])
    }
}

extension APIError {
    /// A region document that cannot be decoded: 400 with where (`location`) and which field (`path`).
    init(_ error: GeoJSONError) {
        var details: [(key: String, json: String)] = []
        if let location = error.location {
            var l = JSONObjectWriter()
            l.add("file", location.file)
            l.add("line", location.line)
            l.add("column", location.column)
            details.append(("location", l.object))
        }
        details.append(("path", JSONObjectWriter.quoted(error.path)))
        if let index = error.featureIndex { details.append(("featureIndex", String(index))) }
        if let identifier = error.featureIdentifier {
            details.append(("featureIdentifier", JSONObjectWriter.quoted(identifier)))
        }
        self.init(.badRequest, code: "geojson.\(error.code.rawValue)", message: error.description, details: details)
    }

    /// A refused import: 422 for invalid regions (each with its reason), 409 for identifiers
    /// already stored, 500 for anything else the store reports.
    init(_ error: StoreError) {
        switch error.code {
        case .invalidRegions:
            let rejected = error.rejected.map { r -> String in
                var w = JSONObjectWriter()
                w.add("identifier", r.identifier)
                w.add("reason", r.reason)
                return w.object
            }
            self.init(
                .unprocessableContent, code: error.code.rawValue, message: error.message,
                details: [("rejected", "[" + rejected.joined(separator: ",") + "]")])
        case .duplicateIdentifier:
            self.init(
                .conflict, code: error.code.rawValue, message: error.message,
                details: [("identifiers", "[" + error.identifiers.map(JSONObjectWriter.quoted).joined(separator: ",") + "]")])
        case .invalidRecord:
            // Something the client sent that the store's rules refuse (a device name, `local`).
            self.init(.badRequest, code: error.code.rawValue, message: error.message)
        default:
            self.init(.internalServerError, code: error.code.rawValue, message: error.message)
        }
    }
}

/// Turns every error a route or the router throws into the JSON error shape: `APIError` as is,
/// `StoreError` and `GeoJSONError` by their codes, Hummingbird's own (`404` for unknown paths,
/// `413` for bodies over the limit) by status, anything else as a logged 500.
struct APIErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return error.response
        } catch let error as StoreError {
            if ![.invalidRegions, .duplicateIdentifier, .invalidRecord].contains(error.code) {
                context.logger.error("store error", metadata: ["error": "\(error)", "path": "\(request.uri.path)"])
            }
            return APIError(error).response
        } catch let error as GeoJSONError {
            return APIError(error).response
        } catch let error as any HTTPResponseError {
            return Self.translate(error.status).response
        } catch {
            context.logger.error("request failed", metadata: ["error": "\(error)", "path": "\(request.uri.path)"])
            return APIError(.internalServerError, code: "internal", message: "internal error: \(error)").response
        }
    }

    private static func translate(_ status: HTTPResponse.Status) -> APIError {
        switch status {
        case .notFound: return .notFound("no such endpoint")
        case .contentTooLarge:
            return APIError(.contentTooLarge, code: "body-too-large", message: "request body is over the size limit")
        case .badRequest: return APIError(.badRequest, code: "bad-request", message: "malformed request")
        default:
            return APIError(status, code: "http-\(status.code)", message: status.reasonPhrase)
        }
    }
}

/// Requires `Authorization: Bearer TOKEN` (the loopback TCP listener; the Unix socket's file
/// mode is its access control). Answers 401 JSON otherwise. The comparison takes the same time
/// wherever the first difference is.
struct BearerTokenMiddleware<Context: RequestContext>: RouterMiddleware {
    let expected: [UInt8]

    init(token: String) { expected = Array("Bearer \(token)".utf8) }

    /// The web page's own files (no data, needed before the user can give the token) and
    /// liveness, which also says whether a token is needed.
    static func isPublic(_ path: String) -> Bool { path == "/" || path.hasPrefix("/web/") || path == "/v1/health" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        if request.method == .get && Self.isPublic(request.uri.path) { return try await next(request, context) }
        let given = Array((request.headers[.authorization] ?? "").utf8)
        var difference = given.count ^ expected.count
        for i in 0..<expected.count { difference |= Int(expected[i] ^ (i < given.count ? given[i] : 0)) }
        guard difference == 0 else {
            throw APIError(
                .unauthorized, code: "unauthorized", message: "this listener needs Authorization: Bearer TOKEN",
                headers: [.wwwAuthenticate: "Bearer"])
        }
        return try await next(request, context)
    }
}
