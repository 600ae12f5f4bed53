import WaymarkCore

/// What one fix changed.
public struct RegionUpdate: Sendable, Equatable {
    /// When the fix established the state of regions that had none (the first fix, or the first
    /// after regions were added): those of them it is inside, ascending. Establishing a state
    /// is not a transition (docs/semantics.md §3: no event at registration).
    public var establishedInside: [Int32]?
    /// The regions whose established state must be saved one by one, ascending (nil as above):
    /// those the fix is inside, and every one when only a few were established
    /// (`RegionMonitor.individualEstablishLimit`).
    public var established: [Int32]?
    /// The fix established the other regions together: each region with no state of its own is
    /// outside from the fix's time (`SavedRegionStates.established`).
    public var establishedTogether = false
    /// Confirmed transitions in time order (exits before enters at the same time, then by
    /// identifier). Empty, and not allocated, when nothing changed.
    public var transitions: [RegionTransition] = []

    public init(establishedInside: [Int32]? = nil, established: [Int32]? = nil, transitions: [RegionTransition] = []) {
        self.establishedInside = establishedInside
        self.established = established
        self.transitions = transitions
    }
}

/// The state of one region.
public enum RegionState: Sendable, Equatable {
    /// No fix since the region was registered (or its geometry changed).
    case unknown
    /// Inside since the crossing (or since its state was established); `nil` when that fix had no time.
    case inside(since: Timestamp?)
    case outside(since: Timestamp?)
}

/// The region state machine over an index (docs/semantics.md §3). Feed fixes in time order; get
/// confirmed transitions.
///
/// Rules, per region:
/// - **Raw membership** is the index's exact answer for the fix. A region whose raw membership
///   differs from its confirmed state has a *pending* transition, started at the first fix on
///   the new side (its `time`).
/// - **The deciding position** is the fix with its stated accuracy, or — at rest, for a region
///   whose margin is small beside the fixes' error — the rest estimate (`RestEstimator`: the
///   mean of the recent fixes) with twice its uncertainty. A fix that is an outlier against a
///   rest changes nothing; three that agree are a departure, taken in order.
/// - **Cancelled** only by a fix back on the old side whose deciding position is clear of the
///   boundary by its uncertainty: a position straddling the boundary neither cancels nor
///   confirms.
/// - **Confirmed** at a fix once the new side has held the region's delay (`enterDelay` /
///   `exitDelay`, default 20 s) **and** the deciding position is beyond the boundary by its
///   uncertainty and by the region's margin (default the smaller of 200 m and a fifth of the
///   region's size, see `RegionIndex.characteristicSize`). The margin is waived once an earlier
///   fix of the crossing got that deep, or after `settleTime` (60 s) with `settleFixes` fixes,
///   so a path along the inside of a boundary still enters. Entering a region smaller than one
///   fix's error asks for a quarter of its size instead of the uncertainty. Its `confirmedAt`
///   is that fix's time, its `rule` the rule that held.
/// - **Fixes without time** confirm on distance alone; a fix worse than a region's
///   `maxAccuracy` neither starts, cancels nor confirms that region's crossing.
/// - **Dwell.** A region with a loitering delay reports `dwell` at the first fix, still inside,
///   that delay after its confirmed entry; once per entry.
/// - **Sparse fixes.** When consecutive fixes are at least `sparseInterval` seconds and
///   `sparseDistance` metres apart, but at most `maximumCrossingGap` seconds apart and within
///   `maximumCrossingSpeed`, each region the straight segment between them passes
///   through (neither fix inside it, confirmed outside, nothing pending) is reported as
///   entered and exited, marked `crossed`, at the interpolated points, if the middle of the
///   stretch inside is at least the hysteresis distance from the boundary. Its state stays
///   outside. A longer silence is a gap: no crossing is inferred across it.
/// - **A phone's own transitions** for circles it watches as they are are evidence too
///   (`apply(reported:)`, docs/semantics.md §3.8), marked rule `phone`.
/// - **Registration** gives no event: the first fix establishes the state, unless the region
///   asks for an initial trigger (then an `initial` entry when it is inside).
///
/// Steady state (every raw membership agreeing with its confirmed state, nothing pending)
/// costs one index query and one comparison per fix and allocates nothing.
public struct RegionMonitor: Sendable {
    /// Defaults of the rules; regions override the margin and the delays.
    public struct Configuration: Sendable, Equatable {
        /// Seconds the new side must hold (a region's `confirmationTime` overrides it).
        public var confirmationTime = 20.0
        /// Seconds after which the hysteresis distance is waived.
        public var settleTime = 60.0
        /// Upper bound of the default hysteresis, metres.
        public var maximumHysteresis = 200.0
        /// Default hysteresis as a fraction of the region's characteristic size.
        public var hysteresisFraction = 0.2
        /// Consecutive fixes this many seconds apart (and `sparseDistance` metres) are sparse.
        public var sparseInterval = 30.0
        public var sparseDistance = 200.0
        /// Crossings are inferred between sparse fixes only across a silence of at most this many
        /// seconds: beyond it the straight path is no evidence of where the device went (a logger
        /// switched off, a file of several trips), and the next fix's state is what counts. 300 s,
        /// `SilenceRule`'s threshold: the silence after which export, visits and pauses speak of
        /// a stay or a gap.
        public var maximumCrossingGap = SilenceRule.standard.threshold
        /// … and only where the straight path needs no more than this speed, m/s (activity
        /// `other`'s bound, the region engine's gate).
        public var maximumCrossingSpeed = 60.0
        /// A crossing that has held `settleTime` also needs this many fixes on its new side
        /// before its margin is waived: the hold counts evidence, not only seconds.
        public var settleFixes = 5
        /// At rest the decision is the estimate's: it must lie on the new side by this many of
        /// its standard deviations (a fix's accuracy counts once).
        public var restSignificance = 2.0
        /// Metres: the rest estimate decides only for fixes scattering more than this (and more
        /// than twice a region's margin) — a phone's error, not a receiver's in open sky, whose
        /// single fixes are trusted as before.
        public var restDecidingSpread = 20.0
        /// Seconds over which a resting device's fixes are combined (`RestEstimator`: the age
        /// at which a fix weighs 1/e).
        public var restWindow = 180.0
        /// How a resting device's fixes are combined, besides the window.
        var rest = RestEstimator.Settings()

        public init() {}
    }

    public let index: RegionIndex
    public let configuration: Configuration
    /// Per region: margin (hysteresis) metres, enter and exit delays (s), loitering delay (−1:
    /// none), the worst accuracy heeded (m), the most an entry's uncertainty rule asks (a
    /// quarter of the region's size, m), flags.
    let margin: [Double]
    let enterHold: [Double]
    let exitHold: [Double]
    let loiter: [Double]
    let worstAccuracy: [Double]
    let entryCap: [Double]
    let flags: [Flags]
    /// The device's position at rest, from its recent fixes.
    var estimator: RestEstimator

    /// Regions confirmed inside, ascending.
    public internal(set) var inside: [Int32] = []
    /// Regions containing the last fix the engine took (raw membership), ascending: an outlier
    /// held against a rest is not taken.
    public internal(set) var raw: [Int32] = []
    var rawPrevious: [Int32] = []
    /// The time each region's state began, in nanoseconds, for regions whose state began on
    /// its own (a crossing, a restored state, an individual establishment). Sparse: a device far
    /// from most regions holds nothing for them.
    var sinceByRegion: [Int32: Int64] = [:]
    /// When the regions established together were established (`unknownMark` before): the start
    /// of every state not in `sinceByRegion` and not unknown.
    var establishedMark = unknownMark
    /// Regions whose state no fix has established yet, ascending.
    var unknown: [Int32]
    /// At most this many regions established by one fix get a state each; more are established
    /// together (`RegionUpdate.establishedTogether`), as the first fix's always are.
    public static let individualEstablishLimit = 64
    var pending: [Pending] = []
    var nextPending: [Pending] = []
    var confirmed: [(Pending, RegionTransition.Rule, Bool)] = []
    var dwelling: [Dwell] = []
    var previous: (time: Timestamp?, coordinate: Coordinate)?
    var candidates: [Int32] = []
    /// Regions whose raw membership disagrees with their state, and those containing the
    /// estimate (working lists of `advancePending`).
    var disagreeing: [Int32] = []
    var estimateRaw: [Int32] = []

    static let unknownMark = Int64.min
    static let noTimeMark = Int64.min + 1

    struct Flags: OptionSet, Sendable {
        let rawValue: UInt8
        static let notifyOnEntry = Flags(rawValue: 1)
        static let notifyOnExit = Flags(rawValue: 2)
        static let initialTrigger = Flags(rawValue: 4)
        /// A phone watches the region as it is: its transitions are evidence.
        static let phoneWatched = Flags(rawValue: 8)
    }

    /// A transition waiting for confirmation.
    struct Pending: Sendable {
        var region: Int32
        var entering: Bool
        /// The first fix on the new side.
        var fix: Fix
        /// Whether a fix since the first has been the hysteresis distance past the boundary.
        var deep = false
        /// Whether the first fix's depth has been measured (at the second fix: most pending
        /// transitions end at their first fix, and measuring costs a distance to the boundary).
        var firstMeasured = false
        /// Fixes on the new side since the first, the first included.
        var fixes = 1
    }

    struct Dwell: Sendable {
        var region: Int32
        var enteredAt: Timestamp
    }

    /// A monitor over `regions`, every state unknown.
    public init(regions: [Region], configuration: Configuration = Configuration()) {
        self.init(
            index: RegionIndex(regions: regions), options: regions.map(\.options), phoneWatched: regions.map(PhoneGeofence.isExact),
            configuration: configuration)
    }

    /// A monitor over a built index; `options[i]` belongs to region `i` (default options when
    /// `options` is empty). `phoneWatched[i]` says whether a phone's own transitions for region
    /// `i` are evidence (`PhoneGeofence.isExact`; none when empty).
    public init(
        index: RegionIndex, options: [RegionOptions] = [], phoneWatched: [Bool] = [], configuration: Configuration = Configuration()
    ) {
        precondition(options.isEmpty || options.count == index.count, "one RegionOptions per region")
        precondition(phoneWatched.isEmpty || phoneWatched.count == index.count, "one phoneWatched per region")
        self.index = index
        self.configuration = configuration
        let count = index.count
        var margin = [Double](repeating: 0, count: count)
        var enterHold = [Double](repeating: configuration.confirmationTime, count: count)
        var exitHold = enterHold
        var loiter = [Double](repeating: -1, count: count)
        var worstAccuracy = [Double](repeating: .infinity, count: count)
        var entryCap = [Double](repeating: 0, count: count)
        var flags = [Flags](repeating: [.notifyOnEntry, .notifyOnExit], count: count)
        for r in 0..<count {
            let option = options.isEmpty ? RegionOptions() : options[r]
            let size = index.characteristicSize(ofRegionAt: r)
            margin[r] = option.hysteresis ?? min(configuration.maximumHysteresis, configuration.hysteresisFraction * size)
            entryCap[r] = size / 4
            enterHold[r] = option.enterDelay ?? option.confirmationTime ?? configuration.confirmationTime
            exitHold[r] = option.exitDelay ?? option.confirmationTime ?? configuration.confirmationTime
            if let limit = option.maxAccuracy { worstAccuracy[r] = limit }
            if let delay = option.loiteringDelay { loiter[r] = delay }
            var f: Flags = []
            if option.notifyOnEntry { f.insert(.notifyOnEntry) }
            if option.notifyOnExit { f.insert(.notifyOnExit) }
            if option.initialTrigger { f.insert(.initialTrigger) }
            if !phoneWatched.isEmpty && phoneWatched[r] { f.insert(.phoneWatched) }
            flags[r] = f
        }
        self.margin = margin
        self.enterHold = enterHold
        self.exitHold = exitHold
        self.loiter = loiter
        self.worstAccuracy = worstAccuracy
        self.entryCap = entryCap
        self.flags = flags
        var rest = configuration.rest
        rest.window = configuration.restWindow
        self.estimator = RestEstimator(settings: rest)
        unknown = (0..<Int32(count)).map { $0 }
        for buffer in [\RegionMonitor.inside, \.raw, \.rawPrevious, \.candidates, \.disagreeing, \.estimateRaw] { self[keyPath: buffer].reserveCapacity(16) }
        pending.reserveCapacity(16)
        nextPending.reserveCapacity(16)
        confirmed.reserveCapacity(16)
    }

    /// Bytes besides the index: the per-region options (49 bytes a region, shared by copies of
    /// the monitor) and `stateFootprint`.
    public var memoryFootprint: Int {
        (margin.count + enterHold.count + exitHold.count + loiter.count + worstAccuracy.count + entryCap.count) * 8 + flags.count
            + stateFootprint
    }

    /// Bytes of one monitor's own state: the start times of states that began on their own,
    /// the regions still unknown, and the small working lists — not a cost per region.
    public var stateFootprint: Int {
        sinceByRegion.capacity * 16
            + (inside.capacity + raw.capacity + rawPrevious.capacity + candidates.capacity + unknown.capacity
                + disagreeing.capacity + estimateRaw.capacity) * 4 + MemoryLayout<RestEstimator>.stride
            + (pending.capacity + nextPending.capacity) * MemoryLayout<Pending>.stride
            + confirmed.capacity * MemoryLayout<(Pending, RegionTransition.Rule, Bool)>.stride
    }

    /// The hysteresis distance of the region at `index`, metres.
    public func hysteresis(ofRegionAt index: Int) -> Double { margin[index] }

    /// Updates the state with `fix` and returns what changed. An outlier against the device's
    /// rest changes nothing (`RestEstimator`); when a few in a row agree, the device has moved
    /// and they are taken in order.
    public mutating func process(_ fix: Fix) -> RegionUpdate {
        var update = RegionUpdate()
        switch estimator.observe(fix) {
        case .held: break
        case .accepted(let estimate): step(fix, estimate: estimate, &update)
        case .released(let fixes): for moved in fixes { step(moved, estimate: nil, &update) }
        }
        if update.transitions.count > 1 { sortTransitions(&update.transitions) }
        return update
    }

    /// The position at rest the monitor decides on, nil while the device moves.
    public var estimate: PositionEstimate? { estimator.estimate }

    private mutating func step(_ fix: Fix, estimate: PositionEstimate?, _ update: inout RegionUpdate) {
        swap(&raw, &rawPrevious)
        index.containing(fix.coordinate, into: &raw)
        if !unknown.isEmpty { establish(fix, &update) }
        if let previous, mayHaveCrossed(from: previous, to: fix) { addCrossings(from: previous, to: fix, &update) }
        if !pending.isEmpty || raw != inside { advancePending(fix, estimate: estimate, &update) }
        if !dwelling.isEmpty { checkDwell(fix, &update) }
        previous = (fix.time, fix.coordinate)
    }

    /// When the region's state began (ns), `unknownMark` while unknown, `noTimeMark` if untimed.
    func sinceMark(_ region: Int32) -> Int64 {
        if let mark = sinceByRegion[region] { return mark }
        return isUnknown(region) ? Self.unknownMark : establishedMark
    }

    /// Whether no fix has established the region's state yet (`unknown` is ascending).
    func isUnknown(_ region: Int32) -> Bool {
        guard !unknown.isEmpty else { return false }
        var low = 0
        var high = unknown.count
        while low < high {
            let middle = (low + high) / 2
            if unknown[middle] < region { low = middle + 1 } else { high = middle }
        }
        return low < unknown.count && unknown[low] == region
    }

    /// The state of the region at `index`.
    public func state(ofRegionAt index: Int) -> RegionState {
        let mark = sinceMark(Int32(index))
        if mark == Self.unknownMark { return .unknown }
        let time = mark == Self.noTimeMark ? nil : Timestamp(nanosecondsSince1970: mark)
        return contains(inside, Int32(index)) ? .inside(since: time) : .outside(since: time)
    }

    func transition(
        _ kind: RegionTransition.Kind, _ region: Int32, at fix: Fix, confirmedAt: Timestamp?, crossed: Bool = false,
        initial: Bool = false, rule: RegionTransition.Rule? = nil, estimated: Bool = false
    ) -> RegionTransition {
        let f = flags[Int(region)]
        let notifies = kind == .dwell || (kind == .enter ? f.contains(.notifyOnEntry) : f.contains(.notifyOnExit))
        return RegionTransition(
            kind: kind, regionIndex: region, identifier: index.identifier(at: Int(region)), fix: fix,
            confirmedAt: confirmedAt, crossed: crossed, initial: initial, notifies: notifies, rule: rule, estimated: estimated)
    }

    /// Time order; at one time exits, then enters, then dwells, each by identifier.
    private func sortTransitions(_ transitions: inout [RegionTransition]) {
        func rank(_ kind: RegionTransition.Kind) -> Int { kind == .exit ? 0 : kind == .enter ? 1 : 2 }
        func precedes(_ a: RegionTransition, _ b: RegionTransition) -> Bool {
            let ta = a.fix.time?.nanosecondsSince1970 ?? Int64.min
            let tb = b.fix.time?.nanosecondsSince1970 ?? Int64.min
            if ta != tb { return ta < tb }
            if rank(a.kind) != rank(b.kind) { return rank(a.kind) < rank(b.kind) }
            return index.identifierRank(at: Int(a.regionIndex)) < index.identifierRank(at: Int(b.regionIndex))
        }
        for i in 1..<transitions.count {
            var k = i
            while k > 0 && precedes(transitions[k], transitions[k - 1]) {
                transitions.swapAt(k, k - 1)
                k -= 1
            }
        }
    }
}

/// Whether the ascending `array` holds `value` (binary search).
@inline(__always)
func contains(_ array: [Int32], _ value: Int32) -> Bool {
    var lo = 0
    var hi = array.count
    while lo < hi {
        let mid = (lo + hi) >> 1
        if array[mid] < value { lo = mid + 1 } else { hi = mid }
    }
    return lo < array.count && array[lo] == value
}

/// Removes `value` from the ascending `array` if it is there.
@inline(__always)
func removeSorted(_ value: Int32, from array: inout [Int32]) {
    if let i = array.firstIndex(of: value) { array.remove(at: i) }
}
