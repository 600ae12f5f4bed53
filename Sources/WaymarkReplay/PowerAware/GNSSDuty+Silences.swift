import WaymarkCore

/// Silences in the recording. Between recorded points up to `silenceThreshold` apart the device
/// moved linearly and a receiver that was on had fixes. A longer silence is a pause: the logger
/// was stopped, or had no signal (indoors, a tunnel), and what a receiver would have seen then is
/// unknown — so neither mode is charged or credited for it. Both are off through it and start
/// again (a hot start) to see the first point after it; a power-aware wake that falls inside it
/// is dropped. The summary reports the silences' total.
extension GNSSDuty {
    /// Seconds: longer than any logger's interval while it records (smart recording stores a point
    /// at least every minute or so while moving).
    static let silenceThreshold = 300.0

    /// Whether the recording was silent for longer than `silenceThreshold` before `fix`.
    func isSilence(before fix: Fix) -> Bool {
        guard let time = fix.time, let before = previous?.time else { return false }
        return time.seconds(since: before) > Self.silenceThreshold
    }

    /// The receiver off through the silence before `time`, and on again to see the fix then.
    mutating func resume(afterSilenceUntil time: Timestamp) {
        guard let before = previous?.time else { return }
        try? ledger.set(.gnss, to: "off", at: max(before, ledger.latestChange ?? before))
        silent += time.seconds(since: before)
        wakeAt = nil
        powerOn(at: time)
    }

    /// Seconds between the receiver's fixes while it tracks (u-blox's default rate, 1 Hz).
    static let receiverInterval = 1.0

    /// The fixes the receiver produced between the last fix and the recorded `fix`: one a
    /// second, on the straight line between them (none across a silence or without times).
    /// A logger records a subset of them; the receiver model sees them all, so both modes
    /// decide at every second, whatever the track's recording interval.
    func receiverFixes(before fix: Fix) -> [Fix] {
        guard let previous, let start = previous.time, let end = fix.time else { return [] }
        let span = end.seconds(since: start)
        guard span > Self.receiverInterval, span <= Self.silenceThreshold else { return [] }
        var fixes: [Fix] = []
        var offset = Self.receiverInterval
        while offset < span - 1e-6 {
            let time = start.adding(seconds: offset)
            if let fill = position(at: time, before: fix) { fixes.append(fill) }
            offset += Self.receiverInterval
        }
        return fixes
    }
}
