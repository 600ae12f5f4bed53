import WaymarkCore
import WaymarkRegions

/// Why a stored event happened (`waymark explain`, `GET /v1/events/{id}/explain`;
/// docs/explain.md): the event as stored, and what recomputing it from the stored fixes with
/// the daemon's pipeline found. Built by `EventExplainer`; nothing here is inferred beyond what
/// the recomputation reported.
public struct EventExplanation: Sendable, Equatable {
    /// The stored event being explained.
    public struct Subject: Sendable, Equatable {
        /// Its row id in the history's `events`.
        public var id: Int64
        public var device: String
        /// `.region` or `.beacon`.
        public var kind: EventKind
        public var region: String
        public var transition: RegionTransition.Kind
        /// The stamped time: the first fix on the new side (a crossing's interpolated time).
        public var time: Timestamp
        /// When the engine confirmed it, as the record says; nil when the record has none.
        public var confirmedAt: Timestamp?
        /// Beacon exits: the last matching advertisement, as the record says.
        public var lastSeen: Timestamp?
        /// The stored JSON record, verbatim.
        public var record: String

        public init(
            id: Int64, device: String, kind: EventKind, region: String, transition: RegionTransition.Kind, time: Timestamp,
            confirmedAt: Timestamp? = nil, lastSeen: Timestamp? = nil, record: String
        ) {
            self.id = id
            self.device = device
            self.kind = kind
            self.region = region
            self.transition = transition
            self.time = time
            self.confirmedAt = confirmedAt
            self.lastSeen = lastSeen
            self.record = record
        }
    }

    /// One stored fix as the recomputation saw it.
    public struct Reading: Sendable, Equatable {
        public var fix: Fix
        /// Whether the fix itself lies in the region (raw containment, before any rule).
        public var inside: Bool
        /// Metres to the region's edge: negative inside, positive outside.
        public var edgeDistance: Double
        /// Why the region gate kept the fix from the engine, if it did (`DropReason`).
        public var dropped: String?

        public init(fix: Fix, inside: Bool, edgeDistance: Double, dropped: String? = nil) {
            self.fix = fix
            self.inside = inside
            self.edgeDistance = edgeDistance
            self.dropped = dropped
        }
    }

    /// An inferred crossing's straight path: the two sparse fixes and where the path meets the edge.
    public struct Path: Sendable, Equatable {
        public var from: Reading
        public var to: Reading
        /// The interpolated enter and exit, in time order.
        public var points: [RegionTransition]
    }

    /// Seconds of fixes fed before the event's stamped time so the engine's estimates start
    /// warm (the engine keeps up to 5 minutes of fixes at rest).
    public static let warmUp = 600.0
    /// Seconds of fixes shown and fed after the confirmation.
    public static let tail = 30.0
    /// At most this many fixes are listed before the stamped time (all of them are fed).
    public static let listedBefore = 10
    /// At most this many fixes are listed from the stamped time on.
    public static let listedAfter = 300

    public var event: Subject
    /// Whether the recomputation produced the same transition (same region, kind, stamped time
    /// and confirmation). False: `mismatch` says what differed. Nil: not recomputed (beacon
    /// events: their advertisements are not stored), `notes` say why.
    public var reproduced: Bool?
    public var mismatch: String?
    /// The recomputed transition matching the event: its rule, `estimated` and `confirmedAt`.
    public var transition: RegionTransition?
    /// The region's margin (hysteresis) in metres, and the delay in seconds its options give this
    /// kind of transition.
    public var margin: Double?
    public var delay: Double?
    /// The side the region was restored to before the fixes were fed (`inside` or `outside`).
    public var startState: String?
    /// The fixes read: `[from, to)`.
    public var window: (from: Timestamp, to: Timestamp)?
    /// The last fixes before the stamped time (at most `listedBefore`), and those from it on.
    public var before: [Reading] = []
    public var after: [Reading] = []
    /// Fixes from the stamped time on beyond `listedAfter`, fed but not listed.
    public var omittedAfter = 0
    /// For an inferred crossing.
    public var path: Path?
    /// Every transition of the region the recomputation made in the window.
    public var recomputed: [RegionTransition] = []
    /// Beacon events: the exit timeout that applied, seconds.
    public var exitTimeout: Double?
    /// What could not be checked, and why.
    public var notes: [String] = []
    /// Fixes fed to the recomputation (the window's).
    public var fixes = 0

    public init(event: Subject, reproduced: Bool?, mismatch: String? = nil) {
        self.event = event
        self.reproduced = reproduced
        self.mismatch = mismatch
    }

    public static func == (a: Self, b: Self) -> Bool { a.json == b.json }
}
