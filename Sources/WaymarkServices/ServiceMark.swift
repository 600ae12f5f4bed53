import WaymarkCore

/// The part of a location service's state a restart must not forget (docs/semantics.md §2.5):
/// what the service has told its subscriber and what it still owes it. Saved with the records
/// that changed it, in the same transaction, so the saved marks always match what was
/// delivered; a restarted service resumes from them and from the stored fixes since `time`.
///
/// - `significantLocation`: the significant-change service's last delivered location. The next
///   one is measured from it, as if the daemon had never stopped.
/// - `stay`: the visit detector's current stay, reported or not. `time` is its first fix (the
///   arrival time, once reported), `coordinate` that fix's position (the stay's anchor). The stay
///   is rebuilt from the stored fixes since then, so a departure owed carries the true arrival
///   time and the whole stay's centre and uncertainty, and an arrival not yet due comes when it
///   would have. (Candidate stays begin at every fix that leaves the last one, about every
///   100 m on the move, so their beginnings depend on the whole past: without this mark a
///   restart shifts every later arrival by up to a candidate's length.)
/// - `timeline`: where the timeline service's rebuilding starts (`TimelineService`): the first fix
///   of the stay it is at or last left (the history's first fix before any stay). The stay and
///   the trip since are rebuilt from the stored fixes, so the segment owed at a restart is
///   reported once, with the values it would have had.
public struct ServiceMark: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case significantLocation = "significant-location"
        case stay
        case timeline
    }

    public var kind: Kind
    public var time: Timestamp
    public var coordinate: Coordinate

    public init(kind: Kind, time: Timestamp, coordinate: Coordinate) {
        self.kind = kind
        self.time = time
        self.coordinate = coordinate
    }
}

extension Array where Element == ServiceMark {
    /// The mark of `kind`, if there is one.
    public subscript(kind: ServiceMark.Kind) -> ServiceMark? { first { $0.kind == kind } }

    /// The earliest time from which stored fixes must be replayed to resume these marks' services:
    /// the start of the current stay or timeline segment, whichever is earlier; nil when nothing
    /// needs fixes.
    public var replayFrom: Timestamp? { [self[.stay]?.time, self[.timeline]?.time].compactMap(\.self).min() }
}
