import Testing
import WaymarkCore

/// `Array.orderedMerge`: one pass over two ordered lists, each keeping its own order.
@Suite struct OrderedMergeTests {
    @Test func interleavesAndKeepsTheFirstListFirstOnTies() {
        let fixes = [(1, "f"), (3, "f"), (3, "f2"), (7, "f")]
        let events = [(0, "e"), (3, "e"), (9, "e")]
        let merged = fixes.orderedMerge(with: events) { $0.0 <= $1.0 }
        #expect(merged.map(\.1) == ["e", "f", "f", "f2", "e", "f", "e"])
        #expect(merged.map(\.0) == [0, 1, 3, 3, 3, 7, 9])
    }

    @Test func eitherSideMayBeEmpty() {
        #expect([Int]().orderedMerge(with: [1, 2]) { $0 < $1 } == [1, 2])
        #expect([1, 2].orderedMerge(with: []) { $0 < $1 } == [1, 2])
    }
}
