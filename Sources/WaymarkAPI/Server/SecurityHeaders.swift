import HTTPTypes
import Hummingbird

/// The headers every answer of the API and the web page carries (issue 48, docs/web.md "What
/// the browser is told"): a Content-Security-Policy that lets the page run only its own files
/// (no inline script, no `eval`, no plugins, no framing), `nosniff`, no referrer, no framing for
/// older browsers, and no use of the answers by other origins' pages (`<img>`, `<script>`).
public struct SecurityHeaders: Sendable, Equatable {
    /// The `Content-Security-Policy` value.
    public let policy: String

    /// The policy for a page whose basemap tiles come from `tiles` (`web.tiles`, a URL template
    /// on another origin), or from the daemon itself (`nil`, or an MBTiles basemap fetched
    /// through the API and shown from `blob:` URLs). Images from `data:` URLs are admitted too
    /// (Leaflet's empty tile); an image cannot run script.
    public init(tiles: String?) {
        // blob: the MBTiles basemap's tiles; data: Leaflet's empty image for tiles it unloads.
        let images = ["'self'", "blob:", "data:"] + (tiles.flatMap(Self.imageSource(tileTemplate:)).map { [$0] } ?? [])
        policy = [
            "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src " + images.joined(separator: " "),
            "connect-src 'self'", "object-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
        ].joined(separator: "; ")
    }

    /// The CSP source that admits a tile URL template's images: its scheme, host and port, a
    /// placeholder leftmost label (`https://{s}.tile.example/…`) as the wildcard `*.`. Nil when
    /// the template is not an absolute http(s) URL or its host cannot be said as a CSP source
    /// (a placeholder elsewhere in the host, characters a header must not hold).
    public static func imageSource(tileTemplate template: String) -> String? {
        let lowered = template.lowercased()
        guard let scheme = ["https", "http"].first(where: { lowered.hasPrefix($0 + "://") }) else { return nil }
        let rest = lowered.dropFirst(scheme.count + 3)
        var authority = String(rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" })
        if authority.hasPrefix("{"), let dot = authority.firstIndex(of: "."), !authority[..<dot].dropFirst().contains("{"),
            authority[..<dot].hasSuffix("}")
        {
            authority = "*" + authority[dot...]
        }
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789.-:[]")
        let host = authority.hasPrefix("*.") ? authority.dropFirst(2) : Substring(authority)
        guard !host.isEmpty, host.allSatisfy(allowed.contains), !host.hasPrefix("."), !host.hasPrefix(":") else { return nil }
        return scheme + "://" + authority
    }

    /// The policy with no tile origin: what an answer the router never saw carries (the
    /// listener's own refusals, `forbidden-peer` and `uri-too-long`).
    static let strict = SecurityHeaders(tiles: nil)

    /// `headers` with every security header this does not find already set.
    func apply(to headers: inout HTTPFields) {
        let fields: [(HTTPField.Name, String)] = [
            (.contentSecurityPolicy, policy), (.xContentTypeOptions, "nosniff"), (.referrerPolicy, "no-referrer"),
            (.xFrameOptions, "DENY"), (.crossOriginResourcePolicy, "same-origin"),
        ]
        for (name, value) in fields where headers[name] == nil { headers[name] = value }
    }
}

/// Puts `SecurityHeaders` on every answer the router gives, errors included (it runs outside
/// `APIErrorMiddleware`, whose answers it sees).
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    let headers: SecurityHeaders

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var response = try await next(request, context)
        headers.apply(to: &response.headers)
        return response
    }
}

extension HTTPField.Name {
    static var referrerPolicy: Self { .init("Referrer-Policy")! }
    static var xFrameOptions: Self { .init("X-Frame-Options")! }
}
