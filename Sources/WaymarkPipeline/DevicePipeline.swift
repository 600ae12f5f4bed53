import WaymarkBeacons
import WaymarkCore
import WaymarkRegions
import WaymarkServices

/// One device's path from source inputs to typed events, the same for every caller:
/// `waymark replay`, `waymark serve` (gpsd or `--replay`), `waymark export`, the benchmarks and
/// handler routing all drive this value, and nobody else builds a region monitor or a
/// service filter.
///
/// For each fix, in this order (docs/semantics.md §2–§3):
/// 1. the **region gate** (a `ValidationGate` with the activity bound of `Options`) decides
///    whether the region engine may see it: no fix, invalid coordinates, fixes from the future
///    (when the caller gives the receipt time), time going backwards, duplicate times and
///    impossible jumps are kept out. Untimed fixes (a GPX track without
///    times) are admitted: the engine confirms them on distance alone;
/// 2. beacon time follows an admitted fix's time (exits and rangings fall due);
/// 3. the **region monitor** reports the initial state and confirmed transitions, then the
///    device's **place** when they changed it (docs/semantics.md §3.7);
/// 4. each **subscriber**'s services, behind the subscriber's own gate, report their records,
///    in subscriber order.
///
/// Pure: no I/O, no clock (time comes in with the inputs), no logger. Single-threaded: feed
/// one device's inputs in arrival order.
public struct DevicePipeline: Sendable {
    /// Rules shared by every subscriber.
    public struct Options: Sendable, Equatable {
        /// Bounds the speed of plausible jumps in the region gate.
        public var regionActivity: ActivityType
        /// Seconds of beacon time between saves of inside beacon regions' last sightings, so a
        /// restart neither loses an exit nor invents one.
        public var sightingSaveInterval: Double
        /// What a silence between fixes means to every subscriber's services (docs/semantics.md §2.6).
        public var silence: SilenceRule

        public init(regionActivity: ActivityType = .other, sightingSaveInterval: Double = 10, silence: SilenceRule = .standard) {
            self.regionActivity = regionActivity
            self.sightingSaveInterval = sightingSaveInterval
            self.silence = silence
        }
    }

    /// What one input produced.
    public struct Step: Sendable, Equatable {
        /// Events in the order they happened.
        public var events: [LocationEvent] = []
        /// Region states (geographic and beacon) this input changed: saving them with the
        /// events lets a restart resume exactly here.
        public var states: [SavedRegionState] = []
        /// Set when this input established regions together (`SavedRegionStates.established`):
        /// saved once for all of them.
        public var regionsEstablished: EstablishedRegions?
        /// Why the region gate kept this fix from the region engine, if it did.
        public var regionDrop: DropReason?
        /// Subscribers whose services' marks changed, with all their marks now: saving them with
        /// the events lets a restart resume the services (docs/semantics.md §2.5).
        public var marks: [SubscriberID: [ServiceMark]] = [:]

        public init() {}
    }

    public let options: Options
    public internal(set) var regionMonitor: RegionMonitor
    public internal(set) var beaconMonitor: BeaconMonitor
    /// The gate in front of the region engine; its counters say what it admitted and dropped.
    public private(set) var regionGate: ValidationGate
    var subscribers: [RunningSubscriber]
    /// The latest beacon time seen (an advertisement, or a fix or tick after the first one).
    var beaconTime: Timestamp?
    /// The beacon time at which inside regions' last sightings were last saved.
    var sightingsSaved: Timestamp?
    /// What subscribers made before the first input resume from; nil after it.
    var resume: SavedServiceMarks?
    /// The geographic regions ranked for the place.
    var places: PlaceRanking
    /// The device's place: the identifier of the best-ranked geographic region it is confirmed
    /// inside (`PlaceRanking`), nil for none (docs/semantics.md §3.7).
    public internal(set) var place: String?
    /// The regions were replaced: the next admitted fix derives the place afresh.
    var placeStale = false
    /// Whether the device has a fix, for `fixLost` / `fixRegained` (`record(fix:arrival:)`).
    var fixPresence = PresenceWatch()

    /// - Parameters:
    ///   - regions: geographic and beacon regions; each kind goes to its monitor.
    ///   - savedStates: states saved by an earlier run, restored before the first input.
    ///   - savedMarks: services' marks saved by an earlier run; subscribers present before the
    ///     first input resume from them.
    ///   - settings: the region engine's rules and the gate's options (`PipelineSettings`).
    public init(
        regions: [Region], savedStates: SavedRegionStates = [], savedMarks: SavedServiceMarks? = nil, subscribers: [Subscriber] = [],
        settings: PipelineSettings = .standard
    ) {
        self.init(
            monitors: RegionMonitors(regions, settings: settings), savedStates: savedStates, savedMarks: savedMarks, subscribers: subscribers)
    }

    /// With monitors built once for many devices (`RegionMonitors`), and the settings they were
    /// built with.
    public init(
        monitors: RegionMonitors, savedStates: SavedRegionStates = [], savedMarks: SavedServiceMarks? = nil,
        subscribers: [Subscriber] = []
    ) {
        self.init(
            regionMonitor: monitors.geographic, beaconMonitor: monitors.beacons, places: monitors.places, savedStates: savedStates,
            savedMarks: savedMarks, subscribers: subscribers, options: monitors.settings.options)
    }

    /// With monitors built elsewhere (a large index is built off the daemon's pipeline). Without
    /// `places`, every region has priority 0. The place is derived from `savedStates`, with no event.
    public init(
        regionMonitor: RegionMonitor, beaconMonitor: BeaconMonitor, places: PlaceRanking? = nil, savedStates: SavedRegionStates = [],
        savedMarks: SavedServiceMarks? = nil, subscribers: [Subscriber] = [], options: Options = Options()
    ) {
        self.options = options
        self.regionMonitor = regionMonitor
        self.beaconMonitor = beaconMonitor
        self.places = places ?? PlaceRanking(index: regionMonitor.index)
        self.regionMonitor.restore(savedStates)
        self.beaconMonitor.restore(savedStates.states)
        self.regionGate = ValidationGate(activityType: options.regionActivity)
        self.subscribers = []
        self.resume = savedMarks
        self.subscribers = subscribers.map { RunningSubscriber($0, beaconRegions: beaconMonitor.regions, resume: savedMarks, silence: options.silence) }
        self.place = derivedPlace()
    }

    /// Runs one input through the pipeline.
    ///
    /// - Parameter receivedAt: when a live source received the input, so the gates drop a fix
    ///   from the future (`DropReason.fromFuture`); `nil` for recorded tracks (replays, exports),
    ///   where the moment of reading says nothing about the fixes' times.
    public mutating func handle(_ input: PipelineInput, receivedAt: Timestamp? = nil) -> Step {
        resume = nil
        var step = Step()
        switch input {
        case .fix(let fix): handle(fix, receivedAt: receivedAt, into: &step)
        case .gap(let time, let reason): step.events.append(.gap(time: time, reason: reason))
        case .advertisement(let advertisement): handle(advertisement, into: &step)
        case .tick(let time): advanceBeacons(to: time, into: &step)
        }
        return step
    }

    /// What subscribers still hold at the end of the input (deferred batches) and the rangings
    /// due through the last beacon instant. Exits that would fall due later are not reported:
    /// the recording ends there, not the beacons. Later inputs start afresh.
    public mutating func finish() -> [LocationEvent] {
        var events: [LocationEvent] = []
        for index in subscribers.indices {
            if let last = beaconTime { subscribers[index].range(before: last, through: true, into: &events) }
            subscribers[index].finish(into: &events)
        }
        return events
    }

    private mutating func handle(_ fix: Fix, receivedAt: Timestamp?, into step: inout Step) {
        if let reason = regionGate.admitForRegions(fix, receivedAt: receivedAt) {
            step.regionDrop = reason
        } else {
            if let time = fix.time, beaconTime != nil { advanceBeacons(to: time, into: &step) }
            let update = regionMonitor.process(fix)
            if let inside = update.establishedInside {
                step.events.append(.state(fix: fix, inside: inside.map { regionMonitor.index.identifier(at: Int($0)) }))
            }
            for transition in update.transitions where transition.notifies { step.events.append(.region(transition)) }
            updatePlace(after: update, of: fix, into: &step)
            saveStates(after: update, of: fix, into: &step)
        }
        for index in subscribers.indices {
            subscribers[index].process(fix, receivedAt: receivedAt, into: &step.events)
            if let marks = subscribers[index].changedMarks() { step.marks[subscribers[index].subscriber.id] = marks }
        }
    }

    /// Established states, and confirmed crossings and dwells: what a restart must resume from.
    /// Crossed regions stay outside: nothing to save.
    func saveStates(after update: RegionUpdate, of fix: Fix, into step: inout Step) {
        if update.establishedTogether { step.regionsEstablished = EstablishedRegions(since: fix.time) }
        var changed = update.established ?? []
        for transition in update.transitions where !transition.crossed { changed.append(transition.regionIndex) }
        guard !changed.isEmpty else { return }
        step.states += Set(changed).sorted().compactMap { regionMonitor.savedState(ofRegionAt: Int($0)) }
    }
}

extension ValidationGate {
    /// The region gate's rule: as `admit`, except that an untimed fix is admitted (its time
    /// rules cannot apply; the region engine confirms untimed fixes on distance alone).
    mutating func admitForRegions(_ fix: Fix, receivedAt: Timestamp? = nil) -> DropReason? {
        guard fix.time == nil else { return admit(fix, receivedAt: receivedAt) }
        if fix.mode == FixMode.none || !fix.coordinate.isValid {
            return admit(fix)
        }
        return nil
    }
}
