import Foundation
import Testing
import WaymarkTestSupport

/// With no `web.tiles` and no `web.basemap`, `waymark serve` serves the installed offline basemap
/// (scripts/basemap-data.sh); `web.basemap: none` turns it off (docs/web.md, "Basemap").
@Suite struct DefaultBasemapTests {
    static let installed = "/usr/local/share/waymark/basemap.mbtiles"

    private func serve(config: String?, _ body: (_ get: (String) async throws -> String, _ daemon: BackgroundProcess) async throws -> Void) async throws {
        let directory = try TemporaryDirectory()
        let socket = directory.path("api.sock")
        var arguments = ["serve", "--gpsd", "127.0.0.1:9", "--db", directory.path("w.sqlite"), "--socket", socket, "--log-level", "info"]
        arguments += ["--config", try directory.write("waymark.yaml", config ?? "log:\n  level: info\n")]
        let daemon = try BackgroundProcess.waymark(arguments)
        try await daemon.whileRunning {
            #expect(try await BackgroundProcess.waitUntil(timeout: 30) { unixSocketAccepts(path: socket) })
            try await body({ path in
                try await runProcess(
                    URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "--unix-socket", socket, "-w", " %{http_code}", "http://localhost" + path]
                ).stdout
            }, daemon)
        }
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: installed), "no basemap installed: scripts/basemap-data.sh makes it"))
    func theInstalledBasemapIsServedWhenNoneIsConfigured() async throws {
        try await serve(config: nil) { get, daemon in
            let web = try await get("/v1/web")
            #expect(web.hasPrefix(#"{"basemap":{"tiles":"/v1/tiles/{z}/{x}/{y}","attribution":"GSHHG "#), "\(web)")
            #expect(web.hasSuffix(#""maxZoom":6}} 200"#), "\(web)")
            #expect(try await get("/v1/tiles/0/0/0").hasSuffix(" 200"))
            #expect(try await get("/v1/tiles/7/0/0") == " 204", "past the file's deepest zoom")
            #expect(daemon.stderr.contains("web page basemap: \(Self.installed), the installed offline basemap"), "\(daemon.stderr)")
        }
    }

    @Test func noneLeavesAPlainBackground() async throws {
        try await serve(config: "web:\n  basemap: none\n") { get, daemon async throws in
            #expect(try await get("/v1/web") == #"{"basemap":null} 200"#)
            #expect(try await get("/v1/tiles/0/0/0").hasSuffix(" 404"))
            #expect(daemon.stderr.contains("web page basemap: none (web.basemap: none)"), "\(daemon.stderr)")
        }
    }
}
