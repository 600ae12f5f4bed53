import WaymarkCore
import WaymarkExport
import WaymarkStore

/// The recorded history between two times: its fixes, with each stored gap (no fix, source
/// disconnected) starting a new piece, and its events.
struct HistoryTrackInput: TrackInput {
    let store: WaymarkStore
    let from: Timestamp?
    let to: Timestamp?
    /// Whose history: one device's fixes make one track (docs/devices.md).
    let device: String
    var name: String? { device == "local" ? "Recorded track" : "Recorded track of \(device)" }

    func read(events: Bool, point: (TrackPoint) throws -> Void, event: (StoredEvent) throws -> Void) throws {
        let kinds: Set<HistoryKind> = events ? [.fix, .gap, .event] : [.fix, .gap]
        var gapPending = false
        try store.history(HistoryQuery(from: from, to: to, kinds: kinds, devices: [device])) { item in
            switch item {
            case .fix(let stored):
                try point(TrackPoint(fix: stored.fix, startsPiece: gapPending))
                gapPending = false
            case .gap:
                gapPending = true
            case .event(let stored):
                try event(stored)
            }
        }
    }
}
