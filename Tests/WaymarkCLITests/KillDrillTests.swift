import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

/// docs/durability.md, tried the hard way: a daemon replaying the sample ride with a handler on
/// every region and on significant change, and an API client reading the live stream and the
/// event list, is SIGKILLed at seeded random moments and restarted each time, then left to
/// finish. Afterwards:
/// - every event the handler was given is in the store, under the id it was given with;
/// - every event the API returned (stream or list) is in the store;
/// - nothing is stored twice, and the handler saw an event twice only as a redelivery
///   (same id, same record, a later attempt);
/// - region monitoring resumed across the kills: the stored transitions are the ones an
///   uninterrupted `waymark replay` of the same track reports;
/// - the location services resumed too: the handler was given the significant changes and
///   visits an uninterrupted replay reports, each once (docs/semantics.md §2.5);
/// - the database passes `PRAGMA integrity_check` and SpatiaLite's `CheckSpatialIndex`;
/// - no handler process is left running: each daemon ended what the killed one left.
///
/// CI runs 10 kills; `scripts/drill.sh KILLS [SEED]` runs more (`WAYMARK_DRILL_KILLS`,
/// `WAYMARK_DRILL_SEED`) and writes its figures to `WAYMARK_DRILL_REPORT` (docs/reliability.md).
@Suite(.serialized) struct KillDrillTests {
    static let track = "Tracks/lakeside-ride.gpx"
    static let environment = ProcessInfo.processInfo.environment
    static let kills = environment["WAYMARK_DRILL_KILLS"].flatMap(Int.init) ?? 10
    static let seed = environment["WAYMARK_DRILL_SEED"].flatMap(UInt64.init) ?? 14

    @Test func sigkillAtRandomMomentsLosesNothingAnyoneWasGiven() async throws {
        let directory = try TemporaryDirectory()
        let db = directory.path("w.sqlite")
        let socket = directory.path("api.sock")
        let out = directory.path("handler.jsonl")
        let imported = try await runWaymark(["regions", "import", "Regions", "--db", db])
        try #require(imported.status == 0, "\(imported.stderr)")
        let added = try await runWaymark(
            ["handlers", "add", "drill", "--exec", HandlerScenario.handlerPath, "--all-regions", "--significant", "--visits", "--db", db, "--", "--out", out])
        try #require(added.status == 0, "\(added.stderr)")

        var random = SplitMix64(seed: Self.seed)
        var apiEvents: [[String: Any]] = []
        for round in 0..<Self.kills {
            let daemon = try BackgroundProcess.waymark(["serve", "--replay", Self.track, "--speed", "150", "--db", db, "--socket", socket])
            try #require(
                try await BackgroundProcess.waitUntil(timeout: 30) { unixSocketAccepts(path: socket) },
                "round \(round): no API socket\n\(daemon.stderr.suffix(2000))")
            let stream = try BackgroundProcess(Self.curl, ["-sN", "--unix-socket", socket, "http://localhost/v1/stream"])
            try await Task.sleep(for: .seconds(Double.random(in: 0.2...2.0, using: &random)))
            let listed = try await runProcess(Self.curl, ["-s", "--unix-socket", socket, "http://localhost/v1/events"])
            daemon.send(SIGKILL)
            #expect(try await daemon.wait(timeout: 10) != nil, "round \(round): the daemon did not die")
            stream.send(SIGTERM)
            _ = try await stream.wait(timeout: 5)
            // The API's events carry their row id (docs/explain.md); the history's lines do not.
            apiEvents += (Self.streamedEvents(stream.stdout) + Self.listedEvents(listed.stdout)).map { $0.filter { $0.key != "id" } }
        }

        // The last run finishes the track, and the handler everything queued for it.
        let last = try BackgroundProcess.waymark(["serve", "--replay", Self.track, "--fast", "--db", db, "--socket", socket])
        // Up before it is judged: after many kills the store may hold the whole track already,
        // and a SIGTERM before the daemon handles signals would end it the default way.
        _ = try await BackgroundProcess.waitUntil(timeout: 30) {
            (try? await runProcess(Self.curl, ["-sf", "--unix-socket", socket, "http://localhost/v1/health"]))?.status == 0
        }
        let finished = try await BackgroundProcess.waitUntil(timeout: 120) {
            guard (try? await Self.count(db, "SELECT count(*) FROM fixes")) == 2974 else { return false }
            return (try? await Self.count(db, "SELECT count(*) FROM handler_events WHERE acked_ns IS NULL")) == 0
        }
        last.send(SIGTERM)
        let lastStatus = try await last.wait(timeout: 20)
        #expect(lastStatus == 0, "status \(String(describing: lastStatus)), running \(last.isRunning)\n\(last.stdout.suffix(1000))\n\(last.stderr.suffix(3000))")
        try #require(finished, "the last run did not finish the track and the handler's queue\n\(last.stderr.suffix(3000))")

        let integrity = try await runProcess(URL(fileURLWithPath: "/usr/bin/sqlite3"), [db, "PRAGMA integrity_check;"])
        #expect(integrity.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "ok")
        let spatialIndex = try await runProcess(
            URL(fileURLWithPath: "/usr/bin/sqlite3"), [db, ".load mod_spatialite", "SELECT CheckSpatialIndex('regions', 'geometry');"])
        #expect(spatialIndex.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1", "\(spatialIndex.stdout)\(spatialIndex.stderr)")
        // Handlers a killed daemon left (suspended or running) were ended by the next one, and
        // the last one's shutdown ended its own.
        let leftover = try await runProcess(URL(fileURLWithPath: "/usr/bin/pgrep"), ["-f", out])
        #expect(leftover.stdout.isEmpty, "handler processes outlived their daemons: \(leftover.stdout)")

        // Every event the API returned is stored; none is stored twice.
        let stored = try await runWaymark(["history", "--db", db, "--kind", "event"]).stdoutLines.compactMap(Self.object)
        #expect(!apiEvents.isEmpty, "the API client saw no event before the kills: the drill proves nothing")
        for event in apiEvents {
            #expect(stored.contains { Self.same($0, event) }, "the API returned an event the store does not have: \(event)")
        }
        #expect(Self.duplicates(stored).isEmpty, "stored twice: \(Self.duplicates(stored))")

        // Every event the handler was given is stored under its id; redeliveries only.
        let queued = try await Self.handlerQueue(db)
        let given = Self.lines(out).filter { $0["event"] != nil }
        #expect(given.count >= queued.count, "the handler got \(given.count) deliveries of \(queued.count) queued events")
        for delivery in given {
            let id = delivery["id"] as? Int ?? -1
            let event = delivery["event"] as? [String: Any] ?? [:]
            #expect(queued[id].map { Self.same($0, event) } == true, "the handler was given event \(id), which the store does not have as given")
        }
        let attempts = Dictionary(grouping: given) { $0["id"] as? Int ?? -1 }
        for (id, deliveries) in attempts where deliveries.count > 1 {
            let numbers = deliveries.compactMap { $0["attempt"] as? Int }
            #expect(numbers == numbers.sorted() && Set(numbers).count == numbers.count, "event \(id) delivered as attempts \(numbers)")
        }
        #expect(Self.duplicates(Array(queued.values)).isEmpty, "queued twice for the handler: \(Self.duplicates(Array(queued.values)))")
        #expect(Set(queued.keys) == Set(attempts.keys), "queued but never delivered: \(Set(queued.keys).subtracting(attempts.keys).sorted())")

        // Region state resumed across the kills: the same transitions as one uninterrupted replay.
        let replayed = try await runWaymark(["replay", Self.track, "--regions", "Regions", "--fast"]).stdoutLines.compactMap(Self.object)
        let expected = replayed.filter { $0["kind"] as? String == "region" }.map(Self.transition)
        let recorded = stored.filter { $0["kind"] as? String == "region" }.map(Self.transition)
        #expect(!expected.isEmpty)
        #expect(recorded == expected)

        // The services resumed across the kills (docs/semantics.md §2.5): the handler was given
        // the significant changes and visits of one uninterrupted replay, each once.
        let services = try await runWaymark(["replay", Self.track, "--significant", "--visits", "--fast"]).stdoutLines
            .compactMap(Self.object).filter { ["significantChange", "visit"].contains($0["kind"] as? String ?? "") }.map(Self.service)
        let handled = queued.sorted { $0.key < $1.key }.map(\.value)
            .filter { ["significantChange", "visit"].contains($0["kind"] as? String ?? "") }.map(Self.service)
        #expect(services.count == 11)
        #expect(handled == services)

        if let report = Self.environment["WAYMARK_DRILL_REPORT"] {
            let lost = apiEvents.filter { event in !stored.contains { Self.same($0, event) } }.count
                + given.filter { delivery in queued[delivery["id"] as? Int ?? -1] == nil }.count
            let figures: [String: Any] = [
                "kills": Self.kills, "seed": Self.seed, "eventsStored": stored.count, "apiEventsChecked": apiEvents.count,
                "handlerDeliveriesChecked": given.count, "redeliveries": given.count - attempts.count, "lost": lost,
                "storedTwice": Self.duplicates(stored).count, "transitionsMatchReplay": recorded == expected,
                "servicesMatchReplay": handled == services,
                "integrity": integrity.stdout.trimmingCharacters(in: .whitespacesAndNewlines),
                "leftoverHandlerProcesses": leftover.stdout.split(separator: "\n").count,
            ]
            try JSONSerialization.data(withJSONObject: figures, options: .sortedKeys).write(to: URL(fileURLWithPath: report))
        }
    }

    static let curl = URL(fileURLWithPath: "/usr/bin/curl")

    /// The `data:` objects of a Server-Sent-Events body that are events (not fixes or gaps).
    static func streamedEvents(_ body: String) -> [[String: Any]] {
        body.split(separator: "\n").filter { $0.hasPrefix("data: ") }.compactMap { object(String($0.dropFirst(6))) }
            .filter { !["fix", "gap"].contains($0["kind"] as? String ?? "") }
    }

    /// The items of a `GET /v1/events` answer (empty when the daemon died before answering).
    static func listedEvents(_ body: String) -> [[String: Any]] {
        (object(body)?["items"] as? [[String: Any]]) ?? []
    }

    static func object(_ line: String) -> [String: Any]? {
        try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    }

    static func lines(_ path: String) -> [[String: Any]] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { object(String($0)) }
    }

    static func same(_ a: [String: Any], _ b: [String: Any]) -> Bool { NSDictionary(dictionary: a).isEqual(to: b) }

    /// Objects that occur more than once.
    static func duplicates(_ objects: [[String: Any]]) -> [String] {
        let texts = objects.map { String(decoding: try! JSONSerialization.data(withJSONObject: $0, options: .sortedKeys), as: UTF8.self) }
        return Dictionary(grouping: texts) { $0 }.filter { $0.value.count > 1 }.keys.sorted()
    }

    /// A service record as the drill compares it: kind, time, visit event and times, position.
    static func service(_ record: [String: Any]) -> String {
        ["kind", "time", "event", "arrivalTime", "departureTime", "latitude", "longitude"].map { "\(record[$0] ?? "-")" }.joined(separator: " ")
    }

    static func transition(_ record: [String: Any]) -> String {
        "\(record["region"] as? String ?? "?") \(record["transition"] as? String ?? "?")"
    }

    /// The handler's queue in the store: id → record.
    static func handlerQueue(_ db: String) async throws -> [Int: [String: Any]] {
        let result = try await runProcess(
            URL(fileURLWithPath: "/usr/bin/sqlite3"), ["-json", db, "SELECT id, record FROM handler_events WHERE handler = 'drill'"])
        let rows = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]) ?? []
        var queue: [Int: [String: Any]] = [:]
        for row in rows {
            if let id = row["id"] as? Int, let record = (row["record"] as? String).flatMap(object) { queue[id] = record }
        }
        return queue
    }

    static func count(_ db: String, _ sql: String) async throws -> Int? {
        Int(try await runProcess(URL(fileURLWithPath: "/usr/bin/sqlite3"), [db, sql]).stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
