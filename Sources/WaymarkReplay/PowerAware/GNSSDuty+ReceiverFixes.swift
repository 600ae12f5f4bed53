import WaymarkCore

/// The receiver's own fixes, between the points a logger recorded: the device moved in a
/// straight line between them, at a steady pace.
extension GNSSDuty {
    /// Seconds between the receiver's fixes while it tracks (u-blox's default rate, 1 Hz).
    static let receiverInterval = 1.0

    /// The fixes the receiver produced between the last fix and the recorded `fix`: one a
    /// second, on the straight line between them (none across a silence or without times).
    /// A logger records a subset of them; the receiver model sees them all, so both modes
    /// decide at every second, whatever the track's recording interval.
    func receiverFixes(before fix: Fix) -> [Fix] {
        guard let previous, let start = previous.time, let end = fix.time else { return [] }
        let span = end.seconds(since: start)
        guard span > Self.receiverInterval, SilenceRule.standard.silence(from: start, to: end) == nil else { return [] }
        var fixes: [Fix] = []
        var offset = Self.receiverInterval
        while offset < span - 1e-6 {
            let time = start.adding(seconds: offset)
            if let fill = position(at: time, before: fix) { fixes.append(fill) }
            offset += Self.receiverInterval
        }
        return fixes
    }

    /// The device's position at `time`, between the last fix (recorded or the receiver's) and
    /// `fix`; nil when `fix` itself is at that time (or there is nothing to interpolate from),
    /// so it is the wake-up fix and is seen.
    func position(at time: Timestamp, before fix: Fix) -> Fix? {
        guard let fixTime = fix.time, fixTime > time, let previous, let previousTime = previous.time,
            previousTime <= time
        else { return nil }
        let t = time.seconds(since: previousTime) / fixTime.seconds(since: previousTime)
        let a = previous.coordinate, b = fix.coordinate
        // The short way round, so a track over the antimeridian stays on it.
        let longitude = Coordinate.wrapped(longitude: a.longitude + t * Coordinate.degreesEast(from: a.longitude, to: b.longitude))
        return Fix(time: time, coordinate: Coordinate(latitude: a.latitude + t * (b.latitude - a.latitude), longitude: longitude))
    }
}
