import Testing
import WaymarkCore
import WaymarkServices
@testable import WaymarkStore
import WaymarkTestSupport

/// Services' marks (v15-service-marks, docs/semantics.md §2.5): written by the store writer with
/// the events that changed them, each subscriber's set replaced whole, read back per device with
/// the fixes a resumed stay needs.
@Suite struct ServiceMarkStoreTests {
    static let place = Coordinate(latitude: 47.35, longitude: 8.72)

    static func fix(_ second: Double, latitude: Double = 47.35) -> Fix {
        Fix(time: HistorySample.at(second), coordinate: Coordinate(latitude: latitude, longitude: 8.72))
    }

    @Test func marksAreReplacedPerSubscriberAndReadWithTheFixesSinceTheStay() async throws {
        let folder = try TemporaryDirectory()
        let store = try WaymarkStore(path: folder.path("w.sqlite"), logger: quietLogger)
        let writer = StoreWriter(store: store, logger: quietLogger)
        let significant = ServiceMark(kind: .significantLocation, time: HistorySample.at(1), coordinate: Self.place)
        let stay = ServiceMark(kind: .stay, time: HistorySample.at(3), coordinate: Self.place)
        _ = try await writer.write(
            [.fix(Self.fix(1), source: "t"), .serviceMarks([significant], subscriber: "handler:h")], device: "phone", durability: .durable)
        _ = try await writer.write(
            [.fix(Self.fix(2, latitude: 47.36), source: "t"), .fix(Self.fix(3), source: "t"), .fix(Self.fix(4), source: "t"),
             .serviceMarks([significant, stay], subscriber: "handler:h"),
             .serviceMarks([significant], subscriber: "subscription:s")],
            device: "phone", durability: .durable)
        _ = try await writer.write([.fix(Self.fix(5), source: "t")], device: "tracker", durability: .recorded)
        await writer.shutdown()

        let saved = try store.savedServiceMarks(device: "phone")
        #expect(saved.marks == ["handler:h": [significant, stay], "subscription:s": [significant]])
        #expect(saved.fixes.map(\.time) == [HistorySample.at(3), HistorySample.at(4)], "the phone's fixes since the stay began")
        #expect(try store.savedServiceMarks(device: "tracker").marks.isEmpty)
        #expect(try store.savedServiceMarks(device: "tracker").fixes.isEmpty, "no marks: no fixes read")
    }

    @Test func withoutAStayTheLastFixAloneIsRead() async throws {
        let folder = try TemporaryDirectory()
        let store = try WaymarkStore(path: folder.path("w.sqlite"), logger: quietLogger)
        let writer = StoreWriter(store: store, logger: quietLogger)
        let significant = ServiceMark(kind: .significantLocation, time: HistorySample.at(1), coordinate: Self.place)
        _ = try await writer.write(
            [.fix(Self.fix(1), source: "t"), .fix(Self.fix(2), source: "t"), .serviceMarks([significant], subscriber: "handler:h")],
            durability: .durable)
        // A departure: the stay mark goes, the set is replaced by what is left.
        _ = try await writer.write([.serviceMarks([], subscriber: "handler:h")], durability: .durable)
        _ = try await writer.write([.serviceMarks([significant], subscriber: "handler:h")], durability: .durable)
        await writer.shutdown()
        let saved = try store.savedServiceMarks()
        #expect(saved.marks == ["handler:h": [significant]])
        #expect(saved.fixes.map(\.time) == [HistorySample.at(2)])
    }

    @Test func removingAHandlerRemovesItsMarks() async throws {
        let folder = try TemporaryDirectory()
        let store = try WaymarkStore(path: folder.path("w.sqlite"), logger: quietLogger)
        try store.saveHandler(name: "h", registrationJSON: "{}", replace: false, at: HistorySample.at(0))
        let writer = StoreWriter(store: store, logger: quietLogger)
        let significant = ServiceMark(kind: .significantLocation, time: HistorySample.at(1), coordinate: Self.place)
        _ = try await writer.write(
            [.serviceMarks([significant], subscriber: "handler:h"), .serviceMarks([significant], subscriber: "subscription:h")],
            durability: .durable)
        await writer.shutdown()
        #expect(try store.removeHandler(name: "h"))
        #expect(try store.savedServiceMarks().marks == ["subscription:h": [significant]])
    }

    @Test func aMarkOffTheEarthIsRefusedAndNamed() async throws {
        let folder = try TemporaryDirectory()
        let store = try WaymarkStore(path: folder.path("w.sqlite"), logger: quietLogger)
        let writer = StoreWriter(store: store, logger: quietLogger)
        let bad = ServiceMark(kind: .stay, time: HistorySample.at(1), coordinate: Coordinate(latitude: 91, longitude: 0))
        await #expect(throws: StoreError.self) {
            _ = try await writer.write([.serviceMarks([bad], subscriber: "handler:h")], durability: .durable)
        }
        await writer.shutdown()
        #expect(try store.savedServiceMarks().marks.isEmpty)
    }
}
