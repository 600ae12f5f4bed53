import WaymarkCore
import WaymarkExport
import WaymarkStore

/// Where an export's track comes from. An input is read twice (once to learn the overview,
/// once to write), each time from the start, in constant memory.
protocol TrackInput {
    /// The track's name, when the input has one.
    var name: String? { get }
    /// Calls `point` for every point in order, and `event` for every event the input itself
    /// records (the history's; a GPX file has none). `events` is false on the second pass.
    func read(events: Bool, point: (TrackPoint) throws -> Void, event: (StoredEvent) throws -> Void) throws
}
