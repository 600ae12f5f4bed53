import WaymarkCore

extension RegionMonitor {
    /// The earliest time after `now` at which a fix could confirm a pending transition or report
    /// a dwell, whatever the device does short of crossing a boundary: a pending transition
    /// cannot be confirmed before its confirmation time has held, nor a dwell reported before its
    /// loitering delay. `now` itself when one could be reported at any fix (held long enough,
    /// waiting for distance or accuracy; or untimed); nil when nothing is pending or dwelling.
    /// A power-aware receiver is awake by then, so it reports them when continuous tracking would.
    public func nextDue(after now: Timestamp) -> Timestamp? {
        var earliest: Timestamp?
        func consider(_ time: Timestamp) {
            let due = max(time, now)
            earliest = min(earliest ?? due, due)
        }
        for change in pending {
            guard let start = change.fix.time else { return now }
            consider(start.adding(seconds: change.entering ? enterHold[Int(change.region)] : exitHold[Int(change.region)]))
        }
        for dwell in dwelling { consider(dwell.enteredAt.adding(seconds: loiter[Int(dwell.region)])) }
        return earliest
    }
}
