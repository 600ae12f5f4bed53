import Foundation
import Testing
import WaymarkTestSupport

/// Location-service subscriptions configured in the daemon give exactly what `waymark replay`
/// prints with the same flags (docs/semantics.md §2: the same services in replay and in the daemon).
@Suite struct ServeSubscriptionTests {
    static let configuration = """
        subscriptions:
          ride:
            standard: { distance_filter: 500 }
            significant_change: true
            visits: true
          coarse:
            significant_change: true
            precision: approximate
        """

    /// `replay`'s service records for `flags`, each labelled as the daemon labels it.
    private func replayed(_ flags: [String], subscription: String) async throws -> [String] {
        let result = try await runWaymark(["replay", "Tracks/lakeside-ride.gpx", "--fast"] + flags)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdoutLines
            .filter { !$0.hasPrefix("{\"kind\":\"state\"") && !$0.hasPrefix("{\"kind\":\"summary\"") }
            .map { String($0.dropLast()) + ",\"subscription\":\"\(subscription)\"}" }
    }

    @Test func eachSubscriptionRecordsWhatReplayPrintsWithTheSameFlags() async throws {
        let directory = try TemporaryDirectory()
        let db = directory.path("waymark.sqlite")
        let config = try directory.write("waymark.yaml", Self.configuration)
        let served = try await runWaymark([
            "serve", "--config", config, "--replay", "Tracks/lakeside-ride.gpx", "--fast", "--exit-after-replay",
            "--db", db, "--socket", directory.path("api.sock"),
        ])
        #expect(served.status == 0, "\(served.stderr)")
        let history = try await runWaymark(["history", "--db", db, "--kind", "event"])
        #expect(history.status == 0, "\(history.stderr)")
        let ride = try await replayed(["--standard", "--distance-filter", "500", "--significant", "--visits"], subscription: "ride")
        let coarse = try await replayed(["--significant", "--approximate"], subscription: "coarse")
        // The ride's fixes carry their HDOP's accuracy (× 5 m): the standard updates' default
        // accuracy keeps the poorer ones out.
        #expect(ride.count == 30 && coarse.count == 9)
        // History is in time order; a visit's arrival is stamped back to its first fix, so compare as sets.
        let records = history.stdoutLines.map { replayRecord($0) }
        #expect(records.filter { $0.hasSuffix("\"subscription\":\"ride\"}") }.sorted() == ride.sorted())
        #expect(records.filter { $0.hasSuffix("\"subscription\":\"coarse\"}") }.sorted() == coarse.sorted())
        #expect(history.stdoutLines.count == ride.count + coarse.count)
    }

    @Test func statusCountsEachSubscriptionWhileTheDaemonRuns() async throws {
        let directory = try TemporaryDirectory()
        let socket = directory.path("api.sock")
        let config = try directory.write("waymark.yaml", Self.configuration)
        let daemon = try BackgroundProcess.waymark([
            "serve", "--config", config, "--replay", "Tracks/lakeside-ride.gpx", "--fast",
            "--db", directory.path("w.sqlite"), "--socket", socket,
        ])
        try await daemon.whileRunning {
            var subscriptions: [[String: Any]] = []
            let done = try await BackgroundProcess.waitUntil(timeout: 60) {
                guard let status = try? await runWaymark(["status", "--socket", socket]), status.status == 0,
                    let object = try? JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any],
                    let list = object["subscriptions"] as? [[String: Any]]
                else { return false }
                subscriptions = list
                return list.first?["accepted"] as? Int == 2063
            }
            #expect(done, "\(daemon.stderr)")
            #expect(subscriptions.map { $0["name"] as? String } == ["ride", "coarse"])
            #expect(subscriptions[0]["services"] as? [String] == ["standard", "significantChange", "visits"])
            #expect(subscriptions[0]["events"] as? [String: Int] == ["location": 20, "significantChange": 8, "visit": 2])
            #expect(subscriptions[1]["precision"] as? String == "approximate")
            #expect(subscriptions[1]["events"] as? [String: Int] == ["significantChange": 9])
        }
    }
}
