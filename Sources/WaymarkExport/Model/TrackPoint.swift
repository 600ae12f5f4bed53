import WaymarkCore

/// One point of the track being exported, as an input delivers it.
public struct TrackPoint: Sendable, Equatable {
    public var fix: Fix
    /// The input itself starts a new piece of track here: a new `trk`, `trkseg` or `rte` in a
    /// GPX file, or a stored gap (no fix, source disconnected) before this fix in the history.
    /// The silence rule (`TrackSegmenter`) may split the track at other points too.
    public var startsPiece: Bool

    public init(fix: Fix, startsPiece: Bool = false) {
        self.fix = fix
        self.startsPiece = startsPiece
    }
}
