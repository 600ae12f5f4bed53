import Foundation
import Logging
import WaymarkCore
import WaymarkPlaces
import WaymarkRegions
import WaymarkServices
import WaymarkStore
import WaymarkTestSupport
import WaymarkTimelineJob

/// A fresh SpatiaLite store and a timeline job over it, with simulated noisy days to record.
struct TimelineRig {
    let folder: TemporaryDirectory
    let store: WaymarkStore
    let job: TimelineJob

    init(places: PlaceIndex? = nil) throws {
        folder = try TemporaryDirectory(prefix: "waymark-timeline")
        store = try WaymarkStore(path: folder.path("waymark.sqlite"), logger: Logger(label: "test.timeline"))
        job = TimelineJob(store: store, places: places, logger: Logger(label: "test.timeline"))
    }

    /// `count` noisy days (`NoisyDay`, each its own seed), one after another, as one time-ordered list.
    static func days(_ count: Int) -> [Fix] {
        (0..<count).flatMap { day in
            NoisyDay(seed: 41 + UInt64(day)).fixes.map { fix in
                var moved = fix
                moved.time = fix.time?.adding(seconds: Double(day) * 86_400)
                return moved
            }
        }
    }

    static let start = NoisyDay.start.adding(seconds: -3_600)
    static let end = NoisyDay.start.adding(seconds: 10 * 86_400)

    func record(_ fixes: [Fix], device: String = "phone") throws {
        for chunk in stride(from: 0, to: fixes.count, by: 5_000) {
            try store.recordFixes(Array(fixes[chunk..<min(chunk + 5_000, fixes.count)]), source: "test", device: device)
        }
    }

    /// The stored stays and trips of `device` over everything.
    func stored(device: String = "phone") throws -> [TimelineSegment] {
        try store.timelineSegments(device: device, from: Self.start, to: Self.end)
    }

    /// The segments of a whole timeline (stored and open).
    func segments(device: String = "phone", from: Timestamp = TimelineRig.start, to: Timestamp = TimelineRig.end) async throws -> [TimelineSegment] {
        try await job.timeline(device: device, from: from, to: to).entries.map(\.segment)
    }
}

extension TimelineEntry {
    var segment: TimelineSegment {
        switch self {
        case .stay(let stay, _): .stay(stay)
        case .trip(let trip, _, _, _): .trip(trip)
        }
    }
}
