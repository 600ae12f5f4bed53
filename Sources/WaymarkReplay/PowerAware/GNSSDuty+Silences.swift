import WaymarkCore

/// Silences in the recording (`SilenceRule`, docs/semantics.md §2.6). Between recorded points up
/// to the rule's 300 s apart the device moved linearly and a receiver that was on had fixes. Over
/// a longer silence, stay or gap alike, the logger was stopped or had no signal (indoors, a
/// tunnel), and what a receiver would have seen then is unknown — so neither mode is charged or
/// credited for it. Both are off through it and start again (a hot start) to see the first
/// point after it; a power-aware wake that falls inside it is dropped. The summary reports the
/// silences' total.
extension GNSSDuty {
    /// Whether the recording was silent (`SilenceRule`) before `fix`.
    func isSilence(before fix: Fix) -> Bool {
        SilenceRule.standard.silence(from: previous?.time, to: fix.time) != nil
    }

    /// The receiver off through the silence before `time`, and on again to see the fix then.
    mutating func resume(afterSilenceUntil time: Timestamp) {
        guard let before = previous?.time else { return }
        try? ledger.set(.gnss, to: "off", at: max(before, ledger.latestChange ?? before))
        silent += time.seconds(since: before)
        wakeAt = nil
        powerOn(at: time)
    }
}
