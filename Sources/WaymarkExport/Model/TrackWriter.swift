import WaymarkCore

/// A format that receives the track's points one at a time, after the overview it was made
/// with, so a million-point track is written in constant memory.
public protocol TrackWriter {
    /// The next point; `startsSegment` is true for the first point of each segment (the first
    /// point of the track included).
    mutating func write(_ fix: Fix, startsSegment: Bool) throws
    /// Writes what follows the points and flushes the output.
    mutating func finish() throws
}
