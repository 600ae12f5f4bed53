import Logging
import Synchronization
import Testing
import WaymarkAPI
import WaymarkPlaces

/// The daemon reads the place data once, however many timeline requests ask at the same time,
/// and a broken or missing file leaves timelines without GeoNames names instead of failing them.
@Suite struct PlaceIndexLoaderTests {
    static let logger = Logger(label: "places-test", factory: { _ in SwiftLogNoOpLogHandler() })

    @Test func manyRequestsAtOnceReadTheDataOnce() async {
        let reads = Atomic<Int>(0)
        let loader = PlaceIndexLoader(logger: Self.logger) {
            reads.add(1, ordering: .relaxed)
            return nil
        }
        await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<32 { group.addTask { await loader.index() == nil } }
            for await missing in group { #expect(missing) }
        }
        #expect(await loader.index() == nil)
        #expect(reads.load(ordering: .relaxed) == 1)
    }

    @Test func anUnreadableFileIsNoPlaceDataAndIsNotReadAgain() async {
        let reads = Atomic<Int>(0)
        let loader = PlaceIndexLoader(logger: Self.logger) {
            reads.add(1, ordering: .relaxed)
            // What a truncated file gives: the index's own error, located.
            return try PlaceIndex(bytes: [0x57, 0x4d])
        }
        #expect(await loader.index() == nil)
        #expect(await loader.index() == nil)
        #expect(reads.load(ordering: .relaxed) == 1)
    }
}
