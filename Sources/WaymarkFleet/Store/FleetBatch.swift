import WaymarkCore
import WaymarkRegions

/// What one batch of a partition's fixes produced, written in one transaction: the fixes
/// (history), the events, the region states they changed and each device's last sequence.
/// Committed before the fixes are acknowledged, so a crash at any point loses nothing and
/// applies nothing twice (docs/fleet.md).
struct FleetBatch: Sendable {
    struct StoredFix: Sendable {
        var device: String
        /// The stream sequence; a fix imported from a single daemon's store has its negated row id.
        var sequence: Int64
        var fix: Fix
        var time: Timestamp
        /// When JetStream stored it.
        var queuedAt: Timestamp?
    }

    struct StoredEvent: Sendable {
        /// `device/sequence/index`: the same on a redelivery, so it is stored once
        /// (`import/ROWID` for one imported from a single daemon's store).
        var id: String
        var device: String
        var time: Timestamp
        var kind: String
        var region: String?
        var sequence: Int64
        var record: String
    }

    var fixes: [StoredFix] = []
    var events: [StoredEvent] = []
    /// Whether the events are out already (history imported from a single daemon, whose outputs
    /// had them); otherwise the worker publishes them after the commit.
    var eventsPublished = false
    var states: [String: [String: SavedRegionState]] = [:]
    var established: [String: EstablishedRegions] = [:]
    var lastSequence: [String: UInt64] = [:]

    var isEmpty: Bool { fixes.isEmpty && lastSequence.isEmpty }

    /// The UTC days the batch's rows fall on (each needs its history partition).
    var days: Set<Int64> {
        Set(fixes.map { Self.day($0.time) } + events.map { Self.day($0.time) })
    }

    static func day(_ time: Timestamp) -> Int64 {
        let seconds = time.nanosecondsSince1970 / 1_000_000_000
        return seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    }
}
