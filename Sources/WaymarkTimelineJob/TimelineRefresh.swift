import Logging
import WaymarkCore
import WaymarkServices
import WaymarkStore

/// One bringing-up-to-date of a device's stored stays and trips (docs/timeline/history.md):
///
/// 1. Fixes added since the last refresh that are older than the last stored stay's last fix
///    (an import, a late upload) drop the stored segments from their time on
///    (`WaymarkStore.rewindTimeline`).
/// 2. The device's fixes after the last stored stay are read in time order, page by page, through
///    a segmenter resumed after that stay; each page's completed trip-and-stay pairs are stored in
///    one transaction, so the stored timeline always ends with a stay.
/// 3. What follows the last stay (the trip to a stay not yet left, the trip under way or the stay
///    the device is in) is returned, not stored: it changes with the next fix.
///
/// Blocking (SQLite): run it off the cooperative pool (`WaymarkStore.offPool`).
struct TimelineRefresh {
    let store: WaymarkStore
    let device: String
    let logger: Logger
    var pageSize = 20_000

    /// What follows the stored segments, and whether its last one is still open.
    struct Tail {
        var segments: [TimelineSegment]
        var lastIsOpen: Bool
    }

    func run() throws -> Tail {
        for _ in 0..<3 {
            if let tail = try attempt() { return tail }
            logger.debug("Another refresh stored the device's timeline first; reading again", metadata: ["device": "\(device)"])
        }
        return try attempt() ?? Tail(segments: [], lastIsOpen: false)
    }

    /// One pass; nil when another refresh stored segments meanwhile.
    private func attempt() throws -> Tail? {
        var progress = try store.timelineProgress(device: device)
        if let added = try store.fixesAdded(device: device, after: progress.seenFixID) {
            if let last = progress.lastStay, added.earliest <= last.lastFix.time {
                try store.rewindTimeline(device: device, before: added.earliest)
                logger.info(
                    "Older fixes were added: recomputing the timeline from them",
                    metadata: ["device": "\(device)", "timeline.from": "\(added.earliest.rfc3339)"])
                progress = try store.timelineProgress(device: device)
            }
            try store.markTimelineSeen(device: device, fixID: added.highestID)
        }
        var segmenter = progress.lastStayFix.map { TimelineSegmenter(resumingAfter: $0) } ?? TimelineSegmenter()
        var position = progress.lastStay?.lastFix
        var expected = position
        var pending: [TimelineSegment] = []
        var pendingStays: [FixPosition] = []
        var recent = RecentPositions()
        while true {
            let page = try store.timelineFixes(device: device, after: position, limit: pageSize)
            guard let last = page.last, let lastTime = last.fix.time else { break }
            for (id, fix) in page {
                guard let time = fix.time else { continue }
                for segment in segmenter.process(fix) {
                    pending.append(segment)
                    if case .stay(let stay) = segment { pendingStays.append(recent.last(at: stay.departure)) }
                }
                recent.append(FixPosition(time: time, id: id))
            }
            if let end = pending.lastIndex(where: \.isStay) {
                let stored = try store.appendTimelineSegments(Array(pending[...end]), stays: pendingStays, device: device, expected: expected)
                guard stored else { return nil }
                expected = pendingStays.last
                pending.removeFirst(end + 1)
                pendingStays.removeAll()
            }
            position = FixPosition(time: lastTime, id: last.id)
        }
        let open = segmenter.open
        return Tail(segments: pending + open, lastIsOpen: !open.isEmpty)
    }
}

extension TimelineSegment {
    var isStay: Bool {
        if case .stay = self { return true }
        return false
    }
}

/// The positions of the latest fixes read, to find a stay's last fix when the segmenter reports
/// the stay (a fix or a few later). Beyond its memory, a stay's last fix is taken as the last of
/// its time (fixes sharing the time are then not read again).
struct RecentPositions {
    static let capacity = 1024
    private var ring: [FixPosition] = []
    private var next = 0

    mutating func append(_ position: FixPosition) {
        if ring.count < Self.capacity {
            ring.append(position)
        } else {
            ring[next] = position
        }
        next = (next + 1) % Self.capacity
    }

    /// The latest remembered fix at `time`.
    func last(at time: Timestamp) -> FixPosition {
        var index = next
        for _ in 0..<ring.count {
            index = (index - 1 + ring.count) % ring.count
            if ring[index].time == time { return ring[index] }
            if ring[index].time < time { break }
        }
        return FixPosition(time: time, id: .max)
    }
}
