import Foundation
import GRDB
import Testing
import WaymarkCore
import WaymarkTestSupport

@testable import WaymarkStore

@Suite struct HistoryRoundTripTests {
    /// A store holding, in recording order (not time order): a bare fix at +2 s, a full fix at
    /// +0 s, a gap at +1 s, an event at +0 s (same time as the full fix), a gap at +0 s.
    func mixedStore(_ folder: TemporaryDirectory) throws -> WaymarkStore {
        let store = try WaymarkStore(path: folder.path("history.sqlite"), logger: quietLogger)
        try store.recordFix(HistorySample.bareFix, source: "replay:ride.gpx")
        try store.recordFix(HistorySample.fullFix, source: "gpsd:127.0.0.1:2947")
        try store.recordGap(time: HistorySample.at(1), reason: "no-fix", source: "gpsd:127.0.0.1:2947")
        try store.recordEvent(HistorySample.enter("SAMO", at: 0))
        try store.recordGap(time: HistorySample.at(0), reason: "disconnected", source: "gpsd:127.0.0.1:2947")
        return store
    }

    @Test func everythingComesBackInTimeOrderAsExactJSONLines() throws {
        let folder = try TemporaryDirectory()
        let store = try mixedStore(folder)
        let lines = try store.collect().map(\.jsonLine)
        #expect(
            lines == [
                #"{"kind":"fix","time":"2008-08-21T13:57:20Z","latitude":34.1,"longitude":-118.7,"altitude":254.25,"horizontalAccuracy":4.5,"verticalAccuracy":9,"latitudeAccuracy":3.25,"longitudeAccuracy":2.5,"hdop":0.8,"vdop":1.25,"pdop":1.5,"satellites":11,"mode":"3d","speed":2.75,"course":359.5,"source":"gpsd:127.0.0.1:2947","device":"local"}"#,
                #"{"kind":"gap","time":"2008-08-21T13:57:20Z","reason":"disconnected","source":"gpsd:127.0.0.1:2947","device":"local"}"#,
                #"{"kind":"region","transition":"enter","region":"SAMO","time":"2008-08-21T13:57:20Z","latitude":34.1,"longitude":-118.7,"device":"local"}"#,
                #"{"kind":"gap","time":"2008-08-21T13:57:21Z","reason":"no-fix","source":"gpsd:127.0.0.1:2947","device":"local"}"#,
                #"{"kind":"fix","time":"2008-08-21T13:57:22Z","latitude":34.43333333333334,"longitude":-118.7,"source":"replay:ride.gpx","device":"local"}"#,
            ])
    }

    @Test func fixesRoundTripFieldForField() throws {
        let folder = try TemporaryDirectory()
        let store = try mixedStore(folder)
        let fixes = try store.collect(HistoryQuery(kinds: [.fix])).compactMap { item -> StoredFix? in
            if case .fix(let fix) = item { return fix } else { return nil }
        }
        #expect(fixes.map(\.fix) == [HistorySample.fullFix, HistorySample.bareFix])
        #expect(fixes.map(\.id) == [2, 1])
        #expect(fixes.map(\.source) == ["gpsd:127.0.0.1:2947", "replay:ride.gpx"])
        let events = try store.collect(HistoryQuery(kinds: [.event]))
        #expect(events == [.event(StoredEvent(
            id: 1, time: HistorySample.at(0), kind: .region, region: "SAMO", transition: .enter,
            coordinate: Coordinate(latitude: 34.1, longitude: -118.7), record: HistorySample.enter("SAMO", at: 0).record))])
    }

    /// A query (times in seconds after `HistorySample.base`) and the items it must return.
    struct FilterCase: Sendable, CustomTestStringConvertible {
        var from: Double?
        var to: Double?
        var kinds: Set<HistoryKind> = Set(HistoryKind.allCases)
        var limit: Int?
        var expected: [String]
        var testDescription: String { "from \(from.map { "\($0)" } ?? "-") to \(to.map { "\($0)" } ?? "-") \(kinds.map(\.rawValue).sorted()) limit \(limit.map { "\($0)" } ?? "-")" }
    }

    @Test(arguments: [
        FilterCase(from: nil, to: nil, limit: 3, expected: ["fix@0", "gap@0", "event@0"]),
        FilterCase(from: 1, to: nil, expected: ["gap@1", "fix@2"]),
        FilterCase(from: nil, to: 2, expected: ["fix@0", "gap@0", "event@0", "gap@1"]),
        FilterCase(from: 0.5, to: 2, expected: ["gap@1"]),
        FilterCase(from: 2, to: 2, expected: []),
        FilterCase(from: nil, to: nil, kinds: [.gap], expected: ["gap@0", "gap@1"]),
        FilterCase(from: nil, to: nil, kinds: [.fix, .event], expected: ["fix@0", "event@0", "fix@2"]),
        FilterCase(from: 0, to: 3, kinds: [.fix, .gap], limit: 1, expected: ["fix@0"]),
        FilterCase(from: nil, to: nil, kinds: [], expected: []),
        FilterCase(from: nil, to: nil, limit: 0, expected: []),
    ])
    func filters(_ test: FilterCase) throws {
        let folder = try TemporaryDirectory()
        let store = try mixedStore(folder)
        let query = HistoryQuery(
            from: test.from.map(HistorySample.at), to: test.to.map(HistorySample.at), kinds: test.kinds, limit: test.limit)
        let items = try store.collect(query).map {
            "\($0.kind.rawValue)@\(JSONObjectWriter.number($0.time.seconds(since: HistorySample.base)))"
        }
        #expect(items == test.expected)
    }

    @Test func lastFixIsTheLatestByTimeNotByRecording() throws {
        let folder = try TemporaryDirectory()
        let store = try WaymarkStore(path: folder.path("history.sqlite"), logger: quietLogger)
        #expect(try store.lastFix() == nil)
        try store.recordFix(HistorySample.bareFix, source: "a")
        try store.recordFix(HistorySample.fullFix, source: "b")
        #expect(try store.lastFix() == StoredFix(id: 1, fix: HistorySample.bareFix, source: "a"))
    }

    @Test func batchesAreAllOrNothing() throws {
        let folder = try TemporaryDirectory()
        let store = try WaymarkStore(path: folder.path("history.sqlite"), logger: quietLogger)
        let ids = try store.recordFixes([HistorySample.fullFix, HistorySample.bareFix], source: "s")
        #expect(ids == [1, 2])
        var bad = HistorySample.bareFix
        bad.coordinate.latitude = 90.5
        #expect {
            try store.recordFixes([HistorySample.fullFix, bad, HistorySample.fullFix], source: "s")
        } throws: { error in
            let error = error as? StoreError
            return error?.code == .invalidRecord && error?.message.contains("fix 1 of 3") == true
        }
        #expect(try store.historyCountList() == [2, 0, 0])
    }

    @Test(arguments: [
        ("untimed", Fix(time: nil, coordinate: Coordinate(latitude: 1, longitude: 2))),
        ("latitude", Fix(time: HistorySample.at(0), coordinate: Coordinate(latitude: -90.001, longitude: 2))),
        ("longitude", Fix(time: HistorySample.at(0), coordinate: Coordinate(latitude: 1, longitude: 180.5))),
        ("NaN", Fix(time: HistorySample.at(0), coordinate: Coordinate(latitude: .nan, longitude: 2))),
        ("accuracy", Fix(time: HistorySample.at(0), coordinate: Coordinate(latitude: 1, longitude: 2), horizontalAccuracy: -1)),
        ("satellites", Fix(time: HistorySample.at(0), coordinate: Coordinate(latitude: 1, longitude: 2), satellites: -3)),
    ])
    func invalidFixesAreRefused(_ name: String, _ fix: Fix) throws {
        let folder = try TemporaryDirectory()
        let store = try WaymarkStore(path: folder.path("history.sqlite"), logger: quietLogger)
        #expect(throws: StoreError.self) { try store.recordFix(fix, source: "s") }
        do {
            try store.recordFix(fix, source: "s")
        } catch let error as StoreError {
            #expect(error.code == .invalidRecord, "\(name): \(error)")
        }
        #expect(try store.historyCountList() == [0, 0, 0])
        // The writer is back at FULL after the refused NORMAL write.
        #expect(try store.database.writeWithoutTransaction { try Int.fetchOne($0, sql: "PRAGMA synchronous") } == 2)
    }

    @Test(arguments: [
        #"not json"#, #"["an","array"]"#, "{\"kind\":\"region\",\n\"x\":1}", "", #""a string""#, "{\"unclosed\":1",
    ])
    func eventRecordsMustBeOneJSONObjectOnOneLine(_ record: String) throws {
        let folder = try TemporaryDirectory()
        let store = try WaymarkStore(path: folder.path("history.sqlite"), logger: quietLogger)
        #expect {
            try store.recordEvent(StoredEvent(time: HistorySample.at(0), kind: .region, record: record))
        } throws: { ($0 as? StoreError)?.code == .invalidRecord }
        #expect(try store.historyCounts().events == 0)
    }

    @Test func emptySourcesAndReasonsAreRefused() throws {
        let folder = try TemporaryDirectory()
        let store = try WaymarkStore(path: folder.path("history.sqlite"), logger: quietLogger)
        #expect { try store.recordGap(time: HistorySample.at(0), reason: "", source: "s") } throws: {
            ($0 as? StoreError)?.code == .invalidRecord
        }
        #expect { try store.recordFix(HistorySample.fullFix, source: "") } throws: {
            ($0 as? StoreError)?.code == .invalidRecord
        }
    }

    @Test func aBodysErrorStopsTheStreamAndComesOutUnchanged() throws {
        struct Stop: Error, Equatable {}
        let folder = try TemporaryDirectory()
        let store = try mixedStore(folder)
        var seen = 0
        #expect(throws: Stop()) {
            try store.history(HistoryQuery()) { _ in
                seen += 1
                if seen == 2 { throw Stop() }
            }
        }
        #expect(seen == 2)
    }

    @Test func writerIsBackAtFullSyncAfterFixesAndEvents() throws {
        let folder = try TemporaryDirectory()
        let store = try mixedStore(folder)
        let sync = try store.database.writeWithoutTransaction { try Int.fetchOne($0, sql: "PRAGMA synchronous") }
        #expect(sync == 2)
    }

    @Test func eachTableIsReadInTimeOrderFromItsIndexWithoutASort() throws {
        let folder = try TemporaryDirectory()
        let store = try mixedStore(folder)
        let query = HistoryQuery(from: HistorySample.at(0), to: HistorySample.at(9), limit: 5)
        for table in ["fixes", "gaps", "events"] {
            let (sql, arguments) = WaymarkStore.selection(from: table, columns: "id", query: query, limit: 5)
            let plan = try store.database.read { db in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { $0["detail"] as String }
            }
            #expect(plan.contains { $0.contains("INDEX \(table)_by_time (time_ns>? AND time_ns<?)") }, "\(table): \(plan)")
            #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(table): \(plan)")
        }
    }

    /// Kinds and transitions are typed from the store out: a row another program wrote with a
    /// kind Waymark does not know is an error naming the row, not a string passed along.
    @Test(arguments: [("teleport", "enter", "event 1: unknown kind 'teleport'"), ("region", "hover", "event 1: unknown transition 'hover'")])
    func anUnknownKindOrTransitionInTheFileNamesTheRow(kind: String, transition: String, message: String) throws {
        let store = try WaymarkStore.temporary(logger: quietLogger)
        try store.database.write { db in
            try db.execute(
                sql: "INSERT INTO events (time_ns, kind, region, transition, record) VALUES (0, ?, 'r', ?, '{}')",
                arguments: [kind, transition])
        }
        #expect {
            _ = try store.collect(HistoryQuery(kinds: [.event]))
        } throws: { error in
            (error as? StoreError)?.message.contains(message) == true
        }
    }
}
