import HTTPTypes
import Hummingbird

/// Counts each exchange's bytes on the wire, as HTTP/1.1 spells them (request line, header
/// fields, body; status line, header fields, body), for the network radio's energy ledger
/// (docs/semantics.md §4.1). A body whose length is not known in advance counts as 0; TLS and
/// TCP overhead are not counted.
struct TrafficMiddleware<Context: RequestContext>: RouterMiddleware {
    let count: @Sendable (Int) -> Void

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let response = try await next(request, context)
        let requestLine = request.method.rawValue.utf8.count + request.uri.description.utf8.count + 11  // " ", " HTTP/1.1\r\n"
        let requestBody = request.headers[.contentLength].flatMap { Int($0) } ?? 0
        let statusLine = 17 + response.status.reasonPhrase.utf8.count  // "HTTP/1.1 200 " … "\r\n"
        let responseBody = response.body.contentLength ?? 0
        count(requestLine + Self.size(of: request.headers) + requestBody + statusLine + Self.size(of: response.headers) + responseBody)
        return response
    }

    /// `name: value\r\n` for each field, and the blank line.
    static func size(of fields: HTTPFields) -> Int {
        fields.reduce(2) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count + 4 }
    }
}
