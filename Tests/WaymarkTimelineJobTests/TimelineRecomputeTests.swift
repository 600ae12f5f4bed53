import Foundation
import Logging
import Testing
import WaymarkCore
import WaymarkServices
import WaymarkStore
import WaymarkTestSupport
import WaymarkTimelineJob

/// The stored stays and trips are the same however they were computed: at once, piece by
/// piece as the history grew, again, or after older fixes were imported.
@Suite struct TimelineRecomputeTests {
    /// The reference: the segmenter over every fix at once, in memory.
    static func continuous(_ fixes: [Fix]) -> (completed: [TimelineSegment], open: [TimelineSegment]) {
        var segmenter = TimelineSegmenter()
        var completed: [TimelineSegment] = []
        for fix in fixes { completed += segmenter.process(fix) }
        return (completed, segmenter.open)
    }

    @Test func storedTimelineIsTheSegmenterOverTheWholeHistory() async throws {
        let rig = try TimelineRig()
        let fixes = TimelineRig.days(3)
        try rig.record(fixes)
        let whole = try await rig.segments()
        let reference = Self.continuous(fixes)
        #expect(reference.completed.filter(\.isStayForTest).count >= 12)
        #expect(whole == reference.completed + reference.open)
        // Stored: everything up to the last completed stay; the rest is open.
        let stored = try rig.stored()
        #expect(stored == Array(reference.completed.prefix(stored.count)))
        #expect(stored.last.map(\.isStayForTest) == true)
    }

    @Test func refreshingTwiceChangesNothing() async throws {
        let rig = try TimelineRig()
        try rig.record(TimelineRig.days(2))
        let first = try await rig.segments()
        let stored = try rig.stored()
        let second = try await rig.segments()
        #expect(first == second)
        #expect(try rig.stored() == stored)
    }

    @Test func growingHistoryGivesWhatTheWholeGives() async throws {
        let fixes = TimelineRig.days(2)
        let whole = try TimelineRig()
        try whole.record(fixes)
        let expected = try await whole.segments()

        let growing = try TimelineRig()
        // Refresh after every 40 minutes of fixes, as the daemon's readers would ask.
        var cut = fixes.startIndex
        while cut < fixes.endIndex {
            let until = fixes[cut].time!.adding(seconds: 2_400)
            let next = fixes[cut...].firstIndex { $0.time! >= until } ?? fixes.endIndex
            try growing.record(Array(fixes[cut..<next]))
            _ = try await growing.segments()
            cut = next
        }
        #expect(try await growing.segments() == expected)
        #expect(try growing.stored() == (try whole.stored()))
    }

    @Test func subRangesConcatenateToTheWhole() async throws {
        let rig = try TimelineRig()
        try rig.record(TimelineRig.days(3))
        let whole = try await rig.segments()
        var pieces: [TimelineSegment] = []
        var from = TimelineRig.start
        while from < TimelineRig.end {
            let to = from.adding(seconds: 5 * 3_600)
            for segment in try await rig.segments(from: from, to: to) where pieces.last.map({ segment.start > $0.start }) ?? true {
                pieces.append(segment)
            }
            from = to
        }
        #expect(pieces == whole)
        // A range holds exactly the segments overlapping it.
        let fixes = TimelineRig.days(3)
        let middle = (from: fixes[fixes.count / 3].time!, to: fixes[fixes.count / 2].time!)
        let inside = try await rig.segments(from: middle.from, to: middle.to)
        #expect(inside == whole.filter { $0.end > middle.from && $0.start < middle.to })
    }

    @Test func importingOlderFixesRecomputesFromThem() async throws {
        let fixes = TimelineRig.days(3)
        let scratch = try TimelineRig()
        try scratch.record(fixes)
        let expected = try await scratch.segments()

        // Live: day 1 with its afternoon missing, then days 2 and 3; the afternoon comes later
        // (an import of an older file), after the timeline was computed.
        let rig = try TimelineRig()
        let afternoon = NoisyDay.start.adding(seconds: 6 * 3_600)..<NoisyDay.start.adding(seconds: 9 * 3_600)
        let (missing, live) = (fixes.filter { afternoon.contains($0.time!) }, fixes.filter { !afternoon.contains($0.time!) })
        #expect(!missing.isEmpty)
        try rig.record(live)
        let before = try await rig.segments()
        #expect(before != expected)
        try rig.record(missing)
        #expect(try await rig.segments() == expected)
        #expect(try rig.stored() == (try scratch.stored()))
    }

    @Test func twoRefreshesAtOnceStoreEachSegmentOnce() async throws {
        let rig = try TimelineRig()
        let fixes = TimelineRig.days(2)
        try rig.record(fixes)
        // A second process on the same file (the CLI beside the daemon's API).
        let other = TimelineJob(
            store: try WaymarkStore(path: rig.folder.path("waymark.sqlite"), logger: Logger(label: "test.timeline")), places: nil,
            logger: Logger(label: "test.timeline"))
        async let first = rig.job.timeline(device: "phone", from: TimelineRig.start, to: TimelineRig.end)
        async let second = other.timeline(device: "phone", from: TimelineRig.start, to: TimelineRig.end)
        let (a, b) = try await (first, second)
        let reference = Self.continuous(fixes)
        #expect(a.entries.map(\.segment) == reference.completed + reference.open)
        #expect(b.entries == a.entries)
        #expect(try rig.stored() == Array(reference.completed.prefix(try rig.stored().count)))
    }

    @Test func devicesAreKeptApart() async throws {
        let rig = try TimelineRig()
        let fixes = TimelineRig.days(1)
        try rig.record(fixes, device: "phone")
        try rig.record(Array(fixes.prefix(2_000)), device: "watch")
        let phone = try await rig.segments(device: "phone")
        let watch = try await rig.segments(device: "watch")
        #expect(phone == Self.continuous(fixes).completed + Self.continuous(fixes).open)
        let reference = Self.continuous(Array(fixes.prefix(2_000)))
        #expect(watch == reference.completed + reference.open)
    }
}

extension TimelineSegment {
    var isStayForTest: Bool {
        if case .stay = self { return true }
        return false
    }
}
