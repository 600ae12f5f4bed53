import Foundation
import Testing
import WaymarkTestSupport

/// `POST /v1/imports` on a real `waymark serve` over its Unix socket (docs/import/api.md): the
/// upload goes to a private folder beside the database, the fixes join the device's history,
/// and the folder is empty once the import has ended.
@Suite struct ImportAPITests {
    /// (status, JSON object) of a curl request over the daemon's socket.
    static func request(_ socket: String, _ path: String, _ arguments: [String] = []) async throws -> (status: Int, object: [String: Any]) {
        let result = try await runProcess(
            URL(fileURLWithPath: "/usr/bin/curl"),
            ["--silent", "--max-time", "30", "--unix-socket", socket, "--write-out", "\n%{http_code}"] + arguments + ["http://localhost\(path)"])
        var lines = result.stdout.split(separator: "\n").map(String.init)
        let status = Int(lines.popLast() ?? "") ?? -1
        let object = (try? JSONSerialization.jsonObject(with: Data(lines.joined().utf8))) as? [String: Any] ?? [:]
        return (status, object)
    }

    @Test func anUploadThroughTheDaemonsSocketLandsInTheDevicesHistory() async throws {
        let directory = try TemporaryDirectory()
        let socket = directory.path("api.sock")
        let daemon = try BackgroundProcess.waymark(["serve", "--gpsd", "127.0.0.1:9", "--db", directory.path("w.sqlite"), "--socket", socket])
        #expect(try await BackgroundProcess.waitUntil(timeout: 20) { unixSocketAccepts(path: socket) }, "\(daemon.stderr)")
        try await daemon.whileRunning {
            let track = ProjectPaths.repositoryRoot.appendingPathComponent("Tracks/lakeside-ride.gpx").path
            let started = try await Self.request(
                socket, "/v1/imports?device=bike&name=lakeside-ride.gpx", ["--data-binary", "@" + track])
            #expect(started.status == 202, "\(started.object) \(daemon.stderr.suffix(2000))")
            let id = try #require(started.object["id"] as? Int)

            var answer: (status: Int, object: [String: Any]) = (0, [:])
            let ended = try await BackgroundProcess.waitUntil(timeout: 60) {
                answer = try await Self.request(socket, "/v1/imports/\(id)")
                return answer.object["running"] as? Bool == false
            }
            #expect(ended, "\(answer)")
            #expect(answer.object["state"] as? String == "done", "\(answer.object)")
            #expect(answer.object["added"] as? Int == 2974)
            #expect(answer.object["sources"] as? [String] == ["lakeside-ride.gpx"])

            let history = try await Self.request(socket, "/v1/fixes?device=bike")
            #expect((history.object["items"] as? [Any])?.count == 2974)

            // The upload's folder: beside the database, private, and empty again.
            let uploads = directory.path("imports")
            let mode = try FileManager.default.attributesOfItem(atPath: uploads)[.posixPermissions] as? Int
            #expect(mode == 0o700)
            #expect(try FileManager.default.contentsOfDirectory(atPath: uploads).isEmpty)

            let unknown = try await Self.request(socket, "/v1/imports?device=bike", ["--data-binary", "not a history file"])
            #expect(unknown.status == 415, "\(unknown.object)")
        }
    }
}
