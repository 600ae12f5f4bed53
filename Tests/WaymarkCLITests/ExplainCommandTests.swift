import Foundation
import Testing
import WaymarkTestSupport

/// `waymark explain` on a history the daemon recorded (docs/explain.md).
@Suite struct ExplainCommandTests {
    /// Every region event the daemon recorded from the sample ride is recomputed from the stored
    /// fixes and reproduced, in text and JSON; an unknown id is an error.
    @Test func everyRecordedRegionEventIsReproduced() async throws {
        let directory = try TemporaryDirectory()
        let db = directory.path("waymark.sqlite")
        let served = try await runWaymark([
            "serve", "--replay", "Tracks/lakeside-ride.gpx", "--fast", "--exit-after-replay",
            "--regions", "Regions", "--db", db, "--socket", directory.path("api.sock"),
        ])
        #expect(served.status == 0, "\(served.stderr)")
        let listed = try await runProcess(
            URL(fileURLWithPath: "/usr/bin/sqlite3"), [db, "SELECT id FROM events WHERE kind = 'region' ORDER BY id"])
        let ids = listed.stdout.split(separator: "\n").compactMap { Int($0) }
        #expect(ids.count == 14, "\(listed.stdout)\(listed.stderr)")
        let config = directory.path("none.yaml")
        try Data().write(to: URL(fileURLWithPath: config))
        for id in ids {
            let text = try await runWaymark(["explain", String(id), "--db", db, "--config", config])
            #expect(text.status == 0, "\(text.stderr)")
            #expect(text.stdout.contains("reproduced: yes"), "event \(id):\n\(text.stdout)")
            #expect(text.stdout.contains("rule: "), "event \(id):\n\(text.stdout)")
        }
        let json = try await runWaymark(["explain", String(try #require(ids.first)), "--json", "--db", db, "--config", config])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["reproduced"] as? Bool == true)
        #expect((object["after"] as? [Any])?.isEmpty == false)

        let unknown = try await runWaymark(["explain", "999999", "--db", db, "--config", config])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no event 999999"), "\(unknown.stderr)")
    }

    /// Through a running daemon's API the answer is the same as from the database.
    @Test func theDaemonAnswersWhatTheDatabaseDoes() async throws {
        let directory = try TemporaryDirectory()
        let db = directory.path("waymark.sqlite")
        let socket = directory.path("api.sock")
        let daemon = try BackgroundProcess.waymark([
            "serve", "--replay", "Tracks/lakeside-ride.gpx", "--fast", "--regions", "Regions", "--db", db, "--socket", socket,
        ])
        try await daemon.whileRunning {
            // The replay is done when the last of its 14 region events is stored.
            let done = try await BackgroundProcess.waitUntil(timeout: 60) {
                let count = try await runProcess(URL(fileURLWithPath: "/usr/bin/sqlite3"), [db, "SELECT count(*) FROM events WHERE kind = 'region'"])
                return unixSocketAccepts(path: socket) && count.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "14"
            }
            try #require(done, "\(daemon.stderr.suffix(2000))")
            let last = try await runProcess(URL(fileURLWithPath: "/usr/bin/sqlite3"), [db, "SELECT max(id) FROM events WHERE kind = 'region'"])
            let id = last.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let viaDaemon = try await runWaymark(["explain", id, "--socket", socket])
            #expect(viaDaemon.status == 0, "\(viaDaemon.stderr)")
            #expect(viaDaemon.stdout.contains("reproduced: yes"), "\(viaDaemon.stdout)")
            let config = directory.path("none.yaml")
            try Data().write(to: URL(fileURLWithPath: config))
            let fromDatabase = try await runWaymark(["explain", id, "--db", db, "--config", config])
            #expect(viaDaemon.stdout == fromDatabase.stdout)
            let json = try await runWaymark(["explain", id, "--json", "--socket", socket])
            #expect(json.stdout.hasPrefix("{\"event\":{\"id\":\(id),"), "\(json.stdout.prefix(200))")
            let unknown = try await runWaymark(["explain", "999999", "--socket", socket])
            #expect(unknown.status == 1)
            #expect(unknown.stderr.contains("no event 999999"), "\(unknown.stderr)")
        }
    }
}
