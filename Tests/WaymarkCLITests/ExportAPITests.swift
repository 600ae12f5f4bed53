import Foundation
import Testing
import WaymarkTestSupport

/// `GET /v1/export` on a real daemon: the history through the export code, the same bytes of
/// statistics `waymark stats --db` prints, a GPX gpxpy reads, a PNG, and located errors.
@Suite struct ExportAPITests {
    static let curl = URL(fileURLWithPath: "/usr/bin/curl")

    @Test func theHistoryComesOutAsTheCommandLineWritesIt() async throws {
        let directory = try TemporaryDirectory()
        let db = directory.path("w.sqlite")
        let socket = directory.path("api.sock")
        let daemon = try BackgroundProcess.waymark([
            "serve", "--replay", ProjectPaths.repositoryRoot.appendingPathComponent("Tracks/lakeside-ride.gpx").path, "--fast",
            "--regions", ProjectPaths.repositoryRoot.appendingPathComponent("Regions").path, "--db", db, "--socket", socket,
        ])
        try await daemon.whileRunning {
            let replayed = try await BackgroundProcess.waitUntil(timeout: 60) { await ServePowerTests.fixesRecorded(socket) >= 2974 }
            try #require(replayed, "\(daemon.stderr.suffix(2000))")
            func get(_ path: String, _ output: String? = nil) async throws -> (status: String, body: String) {
                let result = try await runProcess(
                    Self.curl, ["-s", "--unix-socket", socket, "-w", "\n%{http_code}"] + (output.map { ["-o", $0] } ?? []) + ["http://localhost" + path])
                let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
                return (String(lines.last ?? ""), lines.dropLast().joined(separator: "\n"))
            }
            let range = "from=2026-06-01T08:00:00Z&to=2026-06-01T09:00:00Z"
            let stats = try await get("/v1/export?format=stats&" + range)
            let cli = try await runWaymark(["stats", "--db", db, "--from", "2026-06-01T08:00:00Z", "--to", "2026-06-01T09:00:00Z", "--json"])
            #expect(stats.status == "200" && stats.body == cli.stdout.trimmingCharacters(in: .newlines), "\(stats) vs \(cli.stdout)")

            let gpx = directory.path("out.gpx")
            #expect(try await get("/v1/export?format=gpx&" + range, gpx).status == "200")
            let read = try await runPython(
                "import gpxpy, sys; g = gpxpy.parse(open(sys.argv[1])); print(sum(len(s.points) for t in g.tracks for s in t.segments), len(g.waypoints))", [gpx])
            let counts = read.stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            #expect(counts.first == 2974 && (counts.last ?? 0) > 0, "\(read.stdout)\(read.stderr)")

            let png = directory.path("out.png")
            #expect(try await get("/v1/export?format=png&device=local", png).status == "200")
            let magic = try #require(FileHandle(forReadingAtPath: png)).readData(ofLength: 8)
            #expect(Array(magic) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])

            let empty = try await get("/v1/export?format=gpx&from=2020-01-01T00:00:00Z&to=2020-01-02T00:00:00Z")
            #expect(empty.status == "404" && empty.body.contains("\"code\":\"empty-track\""), "\(empty)")
            let bad = try await get("/v1/export?format=docx")
            #expect(bad.status == "400" && bad.body.contains("\"parameter\":\"format\""), "\(bad)")
            let backwards = try await get("/v1/export?format=gpx&from=2026-06-02T00:00:00Z&to=2026-06-01T00:00:00Z")
            #expect(backwards.status == "400" && backwards.body.contains("\"parameter\":\"to\""), "\(backwards)")
        }
    }
}
