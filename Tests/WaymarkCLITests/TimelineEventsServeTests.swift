import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

/// Stays and trips as events (docs/timeline/events.md) through a real daemon: a subscription
/// with `timeline: true` over a replayed noisy day records the `stay` and `trip` records
/// `waymark replay --timeline` prints for the same track (the same segmenter, the same gate), a
/// webhook output filtered to `trip` receives exactly the trips, and a daemon stopped mid-ride
/// and started again records the ride once.
@Suite(.serialized) struct TimelineEventsServeTests {
    static let configuration = "subscriptions:\n  day:\n    timeline: true\n"

    /// What `waymark replay --timeline` prints of `track`'s stays and trips, labelled as the
    /// daemon labels a subscription's records.
    static func replayed(_ track: String) async throws -> [String] {
        let result = try await runWaymark(["replay", track, "--fast", "--timeline"])
        try #require(result.status == 0, "\(result.stderr)")
        return result.stdoutLines.filter(isSegment).map { String($0.dropLast()) + ",\"subscription\":\"day\"}" }
    }

    /// The stored stay and trip records, in the history's order, as replay prints them.
    static func recorded(_ db: String) async throws -> [String] {
        let history = try await runWaymark(["history", "--db", db, "--kind", "event"])
        try #require(history.status == 0, "\(history.stderr)")
        return history.stdoutLines.map { replayRecord($0) }.filter(isSegment)
    }

    static func isSegment(_ line: String) -> Bool {
        line.hasPrefix(#"{"kind":"stay""#) || line.hasPrefix(#"{"kind":"trip""#)
    }

    @Test func aReplayedDayRecordsItsStaysAndTripsAndTheWebhookGetsTheTrips() async throws {
        let directory = try TemporaryDirectory()
        let db = directory.path("w.sqlite")
        let track = try directory.write("day.gpx", NoisyDay.gpx(NoisyDay().fixes))
        let config = try directory.write("waymark.yaml", Self.configuration)
        let expected = try await Self.replayed(track)
        let trips = expected.filter { $0.hasPrefix(#"{"kind":"trip""#) }
        #expect(expected.count - trips.count >= 4 && trips.count >= 4, "home, café, office and the stop, and the trips: \(expected)")

        let port = try freeLoopbackPort()
        let added = try await runWaymark(["outputs", "add", "trips", "--webhook", "http://127.0.0.1:\(port)/hook", "--kind", "trip", "--db", db])
        try #require(added.status == 0, "\(added.stderr)")
        let secret = try #require(added.stdoutLines.first { $0.hasPrefix("secret: ") }.map { String($0.dropFirst(8)) })
        let log = directory.path("webhook.jsonl")
        let receiver = try WebhookOutputTests.receiver(port: port, secret: secret, log: log)
        let delivered = try await receiver.whileRunning {
            try await WebhookOutputTests.waitForReceiver(receiver, port: port)
            let daemon = try BackgroundProcess.waymark([
                "serve", "--config", config, "--replay", track, "--fast", "--db", db, "--socket", directory.path("api.sock"),
            ])
            return try await daemon.whileRunning {
                let all = try await WebhookOutputTests.waitForDeliveries(log, count: trips.count, timeout: 120)
                try await Task.sleep(for: .seconds(1))  // nothing more comes
                #expect(WebhookOutputTests.delivered(log).count == all.count, "\(daemon.stderr.suffix(2000))")
                return all
            }
        }
        #expect(try await Self.recorded(db) == expected)
        // Only trips, each once, with the record as stored.
        let data = delivered.compactMap { $0["data"] as? [String: Any] }
        #expect(data.count == trips.count && data.allSatisfy { $0["kind"] as? String == "trip" })
        #expect(Set(delivered.compactMap { $0["type"] as? String }) == ["org.waymark.trip"])
        #expect(data.compactMap { $0["start"] as? String }.sorted() == trips.compactMap(Self.start).sorted())
    }

    /// A daemon stopped during the ride to the office (its track ends there) and started again
    /// on the whole day resumes the timeline from its mark: the ride is recorded once, with the
    /// values of an uninterrupted run, and nothing else is lost or repeated.
    @Test func aRestartMidTripRecordsTheOwedTripOnce() async throws {
        let directory = try TemporaryDirectory()
        let db = directory.path("w.sqlite")
        let config = try directory.write("waymark.yaml", Self.configuration)
        let day = NoisyDay()
        let cut = try #require(Timestamp(rfc3339: "2026-06-01T07:35:00Z"))
        let whole = try directory.write("whole.gpx", NoisyDay.gpx(day.fixes))
        let expected = try await Self.replayed(whole)

        let track = try directory.write("day.gpx", NoisyDay.gpx(day.fixes(before: cut)))
        for round in ["until the ride", "the whole day"] {
            if round == "the whole day" { _ = try directory.write("day.gpx", NoisyDay.gpx(day.fixes)) }
            let served = try await runWaymark([
                "serve", "--config", config, "--replay", track, "--fast", "--exit-after-replay", "--db", db, "--socket", directory.path("api.sock"),
            ])
            try #require(served.status == 0, "\(round): \(served.stderr.suffix(2000))")
        }
        let recorded = try await Self.recorded(db)
        #expect(recorded == expected)
        let owed = recorded.filter { line in
            guard let start = Self.member(line, "start").flatMap(Timestamp.init(rfc3339:)),
                let end = Self.member(line, "end").flatMap(Timestamp.init(rfc3339:))
            else { return false }
            return start < cut && cut < end
        }
        #expect(owed.count == 1, "the ride across the restart: \(owed)")
    }

    /// A handler registered with `--timeline` is launched for stays and trips and given each
    /// one, in order, with the values `waymark replay --timeline` prints (less a configured
    /// subscription's name: a handler's records carry none).
    @Test func aHandlerWithTimelineIsGivenTheStaysAndTrips() async throws {
        let scenario = try await HandlerScenario()
        let track = try scenario.directory.write("day.gpx", NoisyDay.gpx(NoisyDay().fixes))
        let replay = try await runWaymark(["replay", track, "--fast", "--timeline"])
        try #require(replay.status == 0, "\(replay.stderr)")
        let expected = replay.stdoutLines.filter(Self.isSegment).compactMap(Self.object)
        // The timeline alone: whatever launches it is a stay or a trip.
        let added = try await runWaymark(
            ["handlers", "add", "day-log", "--exec", HandlerScenario.handlerPath, "--timeline", "--db", scenario.db, "--", "--out", scenario.out])
        try #require(added.status == 0, "\(added.stderr)")
        let daemon = try BackgroundProcess.waymark(["serve", "--replay", track, "--fast", "--db", scenario.db, "--socket", scenario.socket])
        let given = try await daemon.whileRunning {
            let segments = { scenario.events().compactMap { $0["event"] as? [String: Any] }.filter { ["stay", "trip"].contains($0["kind"] as? String) } }
            _ = try await BackgroundProcess.waitUntil(timeout: 120) { segments().count >= expected.count }
            #expect(segments().count == expected.count, "\(daemon.stderr.suffix(2000))")
            return segments()
        }
        #expect(given.map { $0["kind"] as? String } == expected.map { $0["kind"] as? String })
        #expect(given.map { $0["time"] as? String } == expected.map { $0["time"] as? String })
        #expect(given.map { $0["fixes"] as? Int } == expected.map { $0["fixes"] as? Int })
        #expect(scenario.events().first?["reason"] as? String == "stay", "launched for the day's first segment, the stay at home: \(scenario.lines().prefix(3))")
    }

    static func object(_ line: String) -> [String: Any]? {
        try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    }

    /// A trip record's `start`.
    static func start(_ line: String) -> String? { member(line, "start") }

    static func member(_ line: String, _ key: String) -> String? { object(line)?[key] as? String }
}
