import WaymarkCore
import WaymarkExport
import WaymarkGeoJSON
import WaymarkPipeline
import WaymarkRegions
import WaymarkServices
import WaymarkStore

/// Finds the events of a track with the device pipeline `waymark replay` and the daemon run
/// (`DevicePipeline`): region transitions behind the region gate, and one subscriber with the
/// significant-change filter and the visit detector behind its own gate.
///
/// For the history, recorded events are taken as they are, and the engine or a service runs
/// only for what the history does not already hold: region transitions are recomputed only
/// when regions were given for the export, visits and significant changes only when the
/// history has none of that kind in the range.
struct EventCollector {
    private var pipeline: DevicePipeline
    private let recomputesRegions: Bool
    private var namer = TrackEventNamer()
    private var computed: [TrackEvent] = []
    private var recorded: [TrackEvent] = []
    private var recordedKinds: Set<TrackEvent.Kind> = []
    private(set) var initialRegions: [String] = []

    /// - Parameters:
    ///   - regions: what the engine monitors.
    ///   - runEngine: false for the history without `--regions` (its region events are used).
    ///   - settings: the region engine's rules and the gate's options, as the daemon runs them.
    init(regions: [Region], runEngine: Bool, activity: ActivityType, settings: PipelineSettings = .standard) {
        recomputesRegions = runEngine
        let services = ServiceSubscription(significantChange: SignificantChangeThresholds(), visits: VisitThresholds(), activity: activity)
        pipeline = DevicePipeline(
            regions: runEngine ? regions.geographic : [],
            subscribers: [Subscriber(id: .subscription("export"), services: services)], settings: settings)
    }

    mutating func process(_ fix: Fix) {
        collect(pipeline.handle(.fix(fix)).events)
    }

    private mutating func collect(_ events: [LocationEvent]) {
        for event in events {
            switch event {
            case .state(_, let inside) where initialRegions.isEmpty:
                initialRegions = inside
            case .region(let transition) where transition.kind != .dwell:
                computed.append(namer.event(for: transition))
            case .service(let record, _):
                computed.append(self.event(for: record))
            default:
                break
            }
        }
    }

    /// An event the history recorded. Place changes are left out: the region transitions that
    /// moved the place are there already.
    mutating func add(_ stored: StoredEvent) {
        guard stored.kind != .place else { return }
        let fields = Self.fields(of: stored.record)
        let coordinate = stored.coordinate ?? Coordinate(latitude: 0, longitude: 0)
        let event: TrackEvent
        if stored.kind == .region, let region = stored.region, let transition = stored.transition {
            guard !recomputesRegions else { return }
            event = namer.regionEvent(transition == .enter, region: region, time: stored.time, coordinate: coordinate, altitude: nil)
        } else {
            guard stored.coordinate != nil else { return }
            event = namer.event(kind: stored.kind.rawValue, time: stored.time, coordinate: coordinate, fields: fields)
        }
        recorded.append(event)
        recordedKinds.insert(event.kind)
    }

    /// Every event in time order (events without a time keep their place).
    mutating func finish() -> [TrackEvent] {
        collect(pipeline.finish())
        let serviceKinds: Set<TrackEvent.Kind> = [.arrival, .departure]
        let keep = computed.filter { event in
            switch event.kind {
            case .significantChange: !recordedKinds.contains(.significantChange)
            case .arrival, .departure: recordedKinds.isDisjoint(with: serviceKinds)
            default: true
            }
        }
        let all = recorded + keep
        guard all.allSatisfy({ $0.time != nil }) else { return all }
        return all.enumerated().sorted { a, b in
            a.element.time! != b.element.time! ? a.element.time! < b.element.time! : a.offset < b.offset
        }.map(\.element)
    }

    private mutating func event(for record: LocationRecord) -> TrackEvent {
        var fields: [String: String] = [:]
        for (key, value) in record.members { fields[key] = value.text }
        return namer.event(kind: record.kind.rawValue, time: record.time, coordinate: record.coordinate, fields: fields)
    }

    /// The top-level string and number members of a recorded JSON object.
    private static func fields(of record: String) -> [String: String] {
        guard let node = try? JSONParser.parse(Array(record.utf8)), case .object(let members) = node.value else { return [:] }
        var fields: [String: String] = [:]
        for member in members {
            switch member.value.value {
            case .string(let text): fields[member.key] = text
            case .number(let number): fields[member.key] = JSONObjectWriter.number(number)
            default: break
            }
        }
        return fields
    }
}
