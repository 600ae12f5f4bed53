import WaymarkCore

extension RegionMonitor {
    /// Takes a crossing the device's own geofencing reported as evidence (docs/semantics.md
    /// §3.8): a phone in significant mode sends a fix only every ~500 m, so a crossing of a
    /// region it holds may be seen by its geofencing alone. Rules:
    /// - only for a region the phone watches as it is (`PhoneGeofence.isExact`: a circle of
    ///   100 m or more); a trigger circle's transitions, unknown identifiers and beacon regions
    ///   change nothing, and neither does a report without a position, or at one the device could
    ///   not have reached from its last fix (`isReachable`);
    /// - when the state already agrees, nothing: no second event for one crossing;
    /// - a report no later than the start of the region's state, or older than the last fix the
    ///   monitor took with no crossing of its own under way, is late: the fixes since decided, and
    ///   it undoes nothing;
    /// - otherwise the state changes at the report's time with an event of rule `phone`; a
    ///   crossing the fixes had started (pending) becomes that one event, stamped at the earlier
    ///   of its first fix and the report. A dwell waits from a phone's entry as from any other.
    ///
    /// Later fixes keep the usual rules: a fix-based exit after a phone's entry is normal.
    public mutating func apply(reported crossing: ReportedCrossing) -> RegionUpdate {
        var update = RegionUpdate()
        guard var at = crossing.fix, let region = position(of: crossing.identifier),
            flags[Int(region)].contains(.phoneWatched)
        else { return update }
        at.time = crossing.time
        let unknownState = isUnknown(region)
        if !unknownState {
            if contains(inside, region) == crossing.entering { return update }
            if sinceMark(region) >= crossing.time.nanosecondsSince1970 { return update }
        }
        let pendingIndex = pending.firstIndex { $0.region == region && $0.entering == crossing.entering }
        if pendingIndex == nil, let last = previous?.time, crossing.time < last { return update }
        if !isReachable(at) { return update }
        if let pendingIndex {
            if let started = pending[pendingIndex].fix.time, started <= crossing.time { at = pending[pendingIndex].fix }
            pending.remove(at: pendingIndex)
        }
        if unknownState { removeSorted(region, from: &unknown) }
        let time = at.time ?? crossing.time
        if crossing.entering {
            insertSorted(region, into: &inside)
            if loiter[Int(region)] >= 0 { dwelling.append(Dwell(region: region, enteredAt: time)) }
        } else {
            removeSorted(region, from: &inside)
            dwelling.removeAll { $0.region == region }
        }
        sinceByRegion[region] = time.nanosecondsSince1970
        update.transitions.append(transition(crossing.entering ? .enter : .exit, region, at: at, confirmedAt: crossing.time, rule: .phone))
        return update
    }

    /// Metres a reported position may lie beyond what the crossing speed bound allows from the
    /// last fix: a phone in significant mode may place itself by cell or Wi-Fi, hundreds of
    /// metres off.
    static let reportSlack = 500.0

    /// Whether the device could have been at the report's position, given its last fix and the
    /// speed bound of inferred crossings (`maximumCrossingSpeed`, 60 m/s): a report 40 km from a
    /// fix of the same second contradicts the fixes, and is no evidence.
    private func isReachable(_ report: Fix) -> Bool {
        guard let previous, let last = previous.time, let time = report.time else { return true }
        let seconds = abs(time.seconds(since: last))
        return Geodesic.distance(previous.coordinate, report.coordinate) <= configuration.maximumCrossingSpeed * seconds + Self.reportSlack
    }

    /// The position of the region named `identifier`. A scan: reported transitions are a few a day.
    private func position(of identifier: String) -> Int32? {
        (0..<index.count).first { index.identifier(at: $0) == identifier }.map(Int32.init)
    }
}
