import GRDB
import Testing
import WaymarkCore
import WaymarkServices
@testable import WaymarkStore
import WaymarkTestSupport

/// The timeline service's mark (v18-timeline-service-marks, docs/timeline/events.md): stored
/// beside a visit detector's stay mark of the same subscriber, and the fixes since the earlier
/// of the two read back for the resumed services.
@Suite struct TimelineServiceMarkStoreTests {
    static let place = Coordinate(latitude: 47.35, longitude: 8.72)

    static func fix(_ second: Double) -> Fix {
        Fix(time: HistorySample.at(second), coordinate: place)
    }

    @Test func aTimelineMarkIsKeptBesideAStayAndTheEarlierOneSetsTheReplay() async throws {
        let folder = try TemporaryDirectory()
        let store = try WaymarkStore(path: folder.path("w.sqlite"), logger: quietLogger)
        let writer = StoreWriter(store: store, logger: quietLogger)
        let timeline = ServiceMark(kind: .timeline, time: HistorySample.at(2), coordinate: Self.place)
        let stay = ServiceMark(kind: .stay, time: HistorySample.at(3), coordinate: Self.place)
        _ = try await writer.write(
            (1...4).map { .fix(Self.fix(Double($0)), source: "t") } + [.serviceMarks([stay, timeline], subscriber: "subscription:day")],
            device: "phone", durability: .durable)
        await writer.shutdown()

        let saved = try store.savedServiceMarks(device: "phone")
        #expect(Set(saved.marks["subscription:day"] ?? []) == [stay, timeline])
        #expect(saved.fixes.map(\.time) == (2...4).map { HistorySample.at(Double($0)) }, "from the timeline's mark, the earlier")
    }

    /// A database from before v18: its marks survive the table's remaking, and a `timeline` row,
    /// refused before, is taken after; the other CHECKs still hold.
    @Test func aVersion17DatabaseKeepsItsMarksAndTakesTimelineOnes() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("v17.sqlite")
        let insert = "INSERT INTO service_marks (device, subscriber, kind, time_ns, latitude, longitude) VALUES "
        do {
            let pool = try DatabasePool(path: path, configuration: WaymarkStore.configuration(spatialiteModule: "mod_spatialite", logger: quietLogger))
            _ = try pool.writeWithoutTransaction { try Int.fetchOne($0, sql: "SELECT InitSpatialMetadata(1)") }
            try WaymarkStore.migrator.migrate(pool, upTo: "v17-imports")
            try pool.write { db in
                try db.execute(sql: insert + "('local', 'subscription:day', 'stay', 5, 47.35, 8.72)")
                #expect(throws: DatabaseError.self) {
                    try db.execute(sql: insert + "('local', 'subscription:day', 'timeline', 4, 47.35, 8.72)")
                }
            }
        }
        let store = try WaymarkStore(path: path, logger: quietLogger)
        #expect(try store.savedServiceMarks().marks == [
            "subscription:day": [ServiceMark(kind: .stay, time: Timestamp(nanosecondsSince1970: 5), coordinate: Self.place)],
        ])
        try store.database.write { try $0.execute(sql: insert + "('local', 'subscription:day', 'timeline', 4, 47.35, 8.72)") }
        #expect(throws: DatabaseError.self) {
            try store.database.write { try $0.execute(sql: insert + "('local', 'subscription:day', 'trip', 4, 47.35, 8.72)") }
        }
        #expect(try store.savedServiceMarks().marks["subscription:day"]?.count == 2)
    }
}
