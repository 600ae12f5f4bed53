import Logging
import WaymarkCore
import WaymarkExport
import WaymarkPlaces
import WaymarkServices
import WaymarkStore

/// Builds a device's timeline from its history: brings the stored stays and trips up to date
/// (incrementally, from the last stored stay; `TimelineRefresh`), then names those overlapping
/// the range (`PlaceNamer`) and draws the trips' paths. docs/timeline/history.md.
///
/// ```swift
/// let job = TimelineJob(store: store, places: try? PlaceDataFile.load(…), logger: logger)
/// // A local day, in the zone where the device was (or pass timeZone: "Europe/Berlin"):
/// let day = try await job.day(device: "phone", TimelineDay("2026-05-02"))
/// let timeline = try await job.timeline(device: "phone", from: day.from, to: day.to, timeZone: day.timeZone)
/// print(timeline.json)                      // the JSON of Timeline.swift's comment
/// for entry in timeline.entries { … }       // .stay(stay, place:) / .trip(trip, from:, to:, path:)
/// ```
///
/// Errors: `TimelineError` (`.unknownDevice`, `.emptyRange`, `.invalidDay`, `.unknownTimeZone`),
/// `StoreError` from the store. All store work runs off the cooperative pool.
public struct TimelineJob: Sendable {
    public let store: WaymarkStore
    /// The offline geocoder; nil when no place data is installed (names are then coordinates
    /// and the user's regions, times UTC).
    public let places: PlaceIndex?
    public let logger: Logger
    /// Metres: how far a drawn trip's path may stray from its fixes (Douglas–Peucker).
    public static let pathTolerance = 5.0

    public init(store: WaymarkStore, places: PlaceIndex?, logger: Logger) {
        self.store = store
        self.places = places
        self.logger = logger
    }

    /// The stays and trips overlapping [from, to), plus the open one (the trip under way or the
    /// stay the device is in) when it overlaps. `timeZone` names the zone the range was taken in
    /// (nil: the zone at the device's position at `from`, "UTC" without place data).
    public func timeline(device: String, from: Timestamp, to: Timestamp, timeZone: String? = nil) async throws -> Timeline {
        guard from < to else { throw TimelineError.emptyRange(from: from, to: to) }
        if let timeZone, LocalTime.zone(timeZone) == nil { throw TimelineError.unknownTimeZone(timeZone) }
        let logger = logger
        let read = try await store.offPool { store in
            try Self.checkKnown(device, store)
            let tail = try TimelineRefresh(store: store, device: device, logger: logger).run()
            var segments = try store.timelineSegments(device: device, from: from, to: to)
            let overlapping = tail.segments.filter { $0.end >= from && $0.start < to && !($0.end == from && $0.start < from) }
            segments += overlapping
            let lastIsOpen = tail.lastIsOpen && overlapping.last == tail.segments.last && !overlapping.isEmpty
            var paths: [[Coordinate]] = []
            for case .trip(let trip) in segments {
                let inside = try store.timelineFixes(
                    device: device, after: FixPosition(time: trip.start, id: .max), before: trip.end, limit: .max)
                paths.append(Self.path(of: trip, inside.map(\.fix)))
            }
            let position = timeZone == nil ? try store.fixNearest(device: device, atOrBefore: from)?.coordinate : nil
            return (segments, paths, lastIsOpen, try store.regions(), position)
        }
        let namer = PlaceNamer(regions: read.3, places: places)
        let zone = timeZone ?? read.4.map { namer.name($0).timeZone } ?? "UTC"
        return Timeline(
            device: device, from: from, to: to, timeZone: zone, entries: Self.entries(read.0, paths: read.1, namer: namer),
            lastIsOpen: read.2)
    }

    /// The range of a local day for `device`: midnight to midnight in `timeZone`, or (nil) in the
    /// zone where the device was at noon UTC that day (its latest fix then, else its first),
    /// "UTC" without place data or history. `waymark timeline --day` and `GET /v1/timeline?day=`.
    public func day(device: String, _ day: TimelineDay, timeZone: String? = nil) async throws -> (from: Timestamp, to: Timestamp, timeZone: String) {
        let places = places
        let zone = try await store.offPool { store in
            try Self.checkKnown(device, store)
            if let timeZone { return timeZone }
            guard let places, let position = try store.fixNearest(device: device, atOrBefore: day.noonUTC) else { return "UTC" }
            return places.lookup(position.coordinate).timeZone
        }
        let range = try day.range(in: zone)
        return (range.from, range.to, zone)
    }

    // MARK: - Parts

    /// The daemon's own device (`Device.localName`).
    static let localDevice = "local"

    /// A device is known when it is the local one, registered, or has history.
    static func checkKnown(_ device: String, _ store: WaymarkStore) throws {
        if device == Self.localDevice { return }
        if try store.device(named: device) != nil { return }
        if try store.lastFix(device: device) != nil { return }
        throw TimelineError.unknownDevice(device)
    }

    /// A trip's path for drawing: from its first point to its last through the fixes between
    /// that a fresh validation gate admits (the segmenter's, so an outlier it dropped is not
    /// drawn), simplified to `pathTolerance`.
    /// `fixes`: those strictly between the trip's start and end, in time order.
    static func path(of trip: TimelineTrip, _ fixes: [Fix]) -> [Coordinate] {
        var gate = ValidationGate(activityType: .other)
        let start = Fix(time: trip.start, coordinate: trip.from)
        _ = gate.admit(start)
        var points = [start]
        for fix in fixes {
            guard let time = fix.time, time > trip.start, time < trip.end, gate.admit(fix) == nil else { continue }
            points.append(fix)
        }
        points.append(Fix(time: trip.end, coordinate: trip.to))
        var simplifier = TrackSimplifier(tolerance: pathTolerance)
        var kept: [TrackSimplifier.Kept] = []
        for (index, point) in points.enumerated() { simplifier.add(point, startsSegment: index == 0, into: &kept) }
        simplifier.finish(into: &kept)
        return kept.map(\.fix.coordinate)
    }

    /// Names each segment; a trip's ends take the names of the stays it joins, so "from Home to
    /// Office" reads the same as the stays around it.
    static func entries(_ segments: [TimelineSegment], paths: [[Coordinate]], namer: PlaceNamer) -> [TimelineEntry] {
        let stayNames = segments.map { segment -> PlaceName? in
            if case .stay(let stay) = segment { return namer.name(stay.centre) }
            return nil
        }
        var paths = paths.makeIterator()
        return segments.indices.map { index in
            switch segments[index] {
            case .stay(let stay):
                return .stay(stay, place: stayNames[index]!)
            case .trip(let trip):
                let before = index > 0 ? stayNames[index - 1] : nil
                let after = index + 1 < segments.count ? stayNames[index + 1] : nil
                return .trip(
                    trip, from: before ?? namer.name(trip.from), to: after ?? namer.name(trip.to), path: paths.next() ?? [])
            }
        }
    }
}
