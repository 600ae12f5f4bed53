import Foundation
import Testing
@testable import WaymarkAPI
import WaymarkTestSupport

/// Issue 48: what another origin's page can make a browser send is refused, on the real
/// listeners (Unix socket and loopback TCP) queried with curl, which sends `Host` and `Origin`
/// as a browser would. See docs/web.md, "Host and Origin" and "What the browser is told".
@Suite struct SameOriginTests {
    /// (status, body, headers) of a curl request; `target` is `--unix-socket PATH URL` or a URL.
    static func curl(_ target: [String], _ arguments: [String] = []) async throws -> (status: Int, body: String, headers: String) {
        let directory = try TemporaryDirectory()
        let headers = directory.path("headers")
        let result = try await APIServerTests.curl(["-D", headers, "-w", "\n%{http_code}"] + arguments + target)
        var lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let status = Int(lines.popLast() ?? "") ?? -1
        return (status, lines.joined(separator: "\n"), (try? String(contentsOfFile: headers, encoding: .utf8)) ?? "")
    }

    static let registration = #"{"name":"pwn","executable":"/bin/sh"}"#
    static let json = ["-H", "Content-Type: application/json"]

    /// A handler registration a page on another origin posts (as a form or fetch would, with
    /// its `Origin`) is refused with 403 `cross-origin` on both listeners and registers nothing;
    /// so is a DELETE and a body-less launch. The same request from the page's own origin, or
    /// from curl without `Origin`, goes through.
    @Test func crossOriginStateChangesAreRefused() async throws {
        let directory = try TemporaryDirectory()
        let backend = FakeBackend()
        try await APIServerTests.withServer(backend, in: directory, tcp: true) { addresses in
            let port = try #require(addresses.tcpPort)
            let tcp = { (path: String) in ["http://127.0.0.1:\(port)\(path)"] }
            let socket = { (path: String) in ["--unix-socket", addresses.socketPath, "http://localhost\(path)"] }
            let token = ["-H", "Authorization: Bearer t0ken"]
            for (target, extra) in [(tcp, token), (socket, [])] {
                for origin in ["http://evil.example", "http://127.0.0.1:\(port + 1)", "null"] {
                    let post = try await Self.curl(
                        target("/v1/handlers"), extra + Self.json + ["-H", "Origin: \(origin)", "--data-binary", Self.registration])
                    #expect(post.status == 403 && post.body.contains(#""code":"cross-origin""#), "\(origin): \(post.body)")
                    let delete = try await Self.curl(target("/v1/regions/park"), extra + ["-X", "DELETE", "-H", "Origin: \(origin)"])
                    #expect(delete.status == 403 && delete.body.contains(#""code":"cross-origin""#), "\(delete.body)")
                    let launch = try await Self.curl(target("/v1/handlers/logger/launch"), extra + ["-X", "POST", "-H", "Origin: \(origin)"])
                    #expect(launch.status == 403, "\(launch.body)")
                }
                // A form's simple request: text/plain, no preflight. Refused for its origin.
                let form = try await Self.curl(
                    target("/v1/handlers"), extra + ["-H", "Origin: http://evil.example", "-H", "Content-Type: text/plain", "--data-binary", Self.registration])
                #expect(form.status == 403, "\(form.body)")
            }
            #expect(backend.state.withLock { $0.registrations }.isEmpty)
            #expect(backend.state.withLock { $0.regions.map(\.identifier) } == ["park", "block"])

            // The page's own origin: Origin and Host name the same host and port.
            let same = try await Self.curl(
                tcp("/v1/handlers"), token + Self.json + ["-H", "Origin: http://127.0.0.1:\(port)", "--data-binary", Self.registration])
            #expect(same.status == 201, "\(same.body)")
            let forwarded = try await Self.curl(
                socket("/v1/handlers"), Self.json + ["-H", "Host: localhost:8080", "-H", "Origin: http://localhost:8080", "--data-binary", Self.registration])
            #expect(forwarded.status == 201, "\(forwarded.body)")
            let plain = try await Self.curl(socket("/v1/handlers"), Self.json + ["--data-binary", Self.registration])
            #expect(plain.status == 201, "\(plain.body)")
            #expect(backend.state.withLock { $0.registrations.count } == 3)
        }
    }

    /// A body without a Content-Type, or with a form's, is 415 before anything is parsed.
    @Test func bodiesWithoutAJSONTypeAre415() async throws {
        let directory = try TemporaryDirectory()
        let backend = FakeBackend()
        try await APIServerTests.withServer(backend, in: directory) { addresses in
            let target = ["--unix-socket", addresses.socketPath, "http://localhost/v1/handlers"]
            // curl's --data-binary says application/x-www-form-urlencoded; "Content-Type:" drops it.
            for type in ["Content-Type:", "Content-Type: text/plain", "Content-Type: application/x-www-form-urlencoded"] {
                let answer = try await Self.curl(target, ["-H", type, "--data-binary", Self.registration])
                #expect(answer.status == 415, "\(type): \(answer.body)")
                #expect(answer.body.contains(#""code":"unsupported-media-type""#) && answer.body.contains("Content-Type: application/json"), "\(answer.body)")
            }
            #expect(backend.state.withLock { $0.registrations }.isEmpty)
        }
    }

    /// DNS rebinding: a name that is not loopback in `Host` is refused, even for reading. The
    /// TCP listener wants its own port and a Host; the Unix socket (reached through forwards on
    /// any port) takes loopback names on any port, or no Host.
    @Test func foreignHostsAreRefused() async throws {
        let directory = try TemporaryDirectory()
        try await APIServerTests.withServer(FakeBackend(), in: directory, tcp: true) { addresses in
            let port = try #require(addresses.tcpPort)
            let tcp = ["http://127.0.0.1:\(port)/v1/status"]
            let token = ["-H", "Authorization: Bearer t0ken"]
            for host in ["evil.example:\(port)", "127.0.0.1:\(port + 1)", "127.0.0.2:\(port)", "localhost.evil.example:\(port)", "a:b"] {
                let answer = try await Self.curl(tcp, token + ["-H", "Host: \(host)"])
                #expect(answer.status == 403 && answer.body.contains(#""code":"foreign-host""#), "Host \(host): \(answer.status) \(answer.body)")
            }
            for host in ["127.0.0.1:\(port)", "localhost:\(port)", "LOCALHOST:\(port)", "[::1]:\(port)"] {
                #expect(try await Self.curl(tcp, token + ["-H", "Host: \(host)"]).status == 200, "Host \(host)")
            }
            let socket = ["--unix-socket", addresses.socketPath, "http://localhost/v1/status"]
            for host in ["evil.example", "evil.example:8080", "192.168.1.2:8080"] {
                let answer = try await Self.curl(socket, ["-H", "Host: \(host)"])
                #expect(answer.status == 403 && answer.body.contains(#""code":"foreign-host""#), "Host \(host): \(answer.body)")
            }
            for host in ["localhost", "127.0.0.1:8080", "[::1]:9000"] {
                #expect(try await Self.curl(socket, ["-H", "Host: \(host)"]).status == 200, "Host \(host)")
            }
            // "Host:" with nothing after it makes curl send none.
            #expect(try await Self.curl(socket, ["-H", "Host:"]).status == 200)
            // The page itself is not served to a rebound name either.
            let page = try await Self.curl(["http://127.0.0.1:\(port)/"], ["-H", "Host: evil.example:\(port)"])
            #expect(page.status == 403)
        }
    }

    /// The page, its scripts, the API's answers and its errors all carry the headers, on both
    /// listeners.
    @Test func everyAnswerCarriesTheSecurityHeaders() async throws {
        let directory = try TemporaryDirectory()
        try await APIServerTests.withServer(FakeBackend(), in: directory, tcp: true) { addresses in
            let port = try #require(addresses.tcpPort)
            var answers: [(String, (status: Int, body: String, headers: String))] = []
            for path in ["/", "/web/app.js", "/v1/health", "/v1/status", "/v1/nothing-here"] {
                answers.append(("tcp \(path)", try await Self.curl(["http://127.0.0.1:\(port)\(path)"])))
                answers.append(("socket \(path)", try await Self.curl(["--unix-socket", addresses.socketPath, "http://localhost\(path)"])))
            }
            answers.append(("foreign host", try await Self.curl(["http://127.0.0.1:\(port)/"], ["-H", "Host: evil.example"])))
            for (what, answer) in answers {
                let headers = answer.headers.lowercased()
                #expect(headers.contains("content-security-policy: default-src 'self'; script-src 'self';"), "\(what): \(answer.headers)")
                #expect(headers.contains("frame-ancestors 'none'") && headers.contains("object-src 'none'"), "\(what)")
                #expect(headers.contains("x-content-type-options: nosniff"), "\(what)")
                #expect(headers.contains("referrer-policy: no-referrer"), "\(what)")
                #expect(headers.contains("x-frame-options: deny"), "\(what)")
            }
            #expect(answers.map(\.1.status) == [200, 200, 200, 200, 200, 200, 401, 200, 401, 404, 403])
        }
    }

    /// The policy names the configured tile server's origin for images, and nothing else foreign.
    @Test func thePolicyAdmitsOnlyTheConfiguredTileOrigin() {
        #expect(SecurityHeaders(tiles: nil).policy.contains("img-src 'self' blob: data:;"))
        #expect(SecurityHeaders(tiles: "https://tile.example/{z}/{x}/{y}.png").policy.contains("img-src 'self' blob: data: https://tile.example;"))
        let cases: [(String, String?)] = [
            ("https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png", "https://*.tile.openstreetmap.org"),
            ("http://localhost:8081/tiles/{z}/{x}/{y}.png", "http://localhost:8081"),
            ("HTTPS://Tiles.Example?z={z}&x={x}&y={y}", "https://tiles.example"),
            ("https://a.{s}.example/{z}/{x}/{y}", nil), ("ftp://tiles.example/{z}/{x}/{y}", nil),
            ("/tiles/{z}/{x}/{y}", nil), ("https://x.example; script-src */{z}/{x}/{y}", nil), ("https://u:p@x/{z}/{x}/{y}", nil),
        ]
        for (template, source) in cases {
            #expect(SecurityHeaders.imageSource(tileTemplate: template) == source, "\(template)")
        }
    }
}
