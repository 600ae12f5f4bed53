import WaymarkCore
import WaymarkExport
import WaymarkPipeline
import WaymarkRegions
import WaymarkServices
import WaymarkStore

/// The first pass over an input: segments (by the gap rule), statistics, bounds and events,
/// gathered into the `TrackOverview` every format starts from. Memory: the events, not the
/// points.
struct TrackAnalyzer {
    private var segmenter: TrackSegmenter
    private var statistics = TrackStatisticsAccumulator()
    private var events: EventCollector
    private var bounds = TrackBoundsAccumulator()
    private var allHaveAltitude = true
    private(set) var lastTime: Timestamp?

    init(settings: PipelineSettings, regions: [Region], runEngine: Bool, activity: ActivityType) {
        segmenter = TrackSegmenter(rule: settings.silence)
        events = EventCollector(regions: regions, runEngine: runEngine, activity: activity, settings: settings)
    }

    mutating func add(_ point: TrackPoint) {
        let fix = point.fix
        statistics.add(fix, startsSegment: segmenter.startsSegment(point))
        bounds.add(fix.coordinate)
        if fix.altitude == nil { allHaveAltitude = false }
        if let time = fix.time { lastTime = time }
        events.process(fix)
    }

    mutating func add(_ stored: StoredEvent) { events.add(stored) }

    mutating func finish(name: String?, regions: [Region]) -> TrackOverview {
        let result = statistics.result
        return TrackOverview(
            name: name, statistics: result, bounds: bounds.bounds, events: events.finish(), regions: regions,
            initialRegions: events.initialRegions, allPointsHaveAltitude: allHaveAltitude && result.points > 0)
    }
}
