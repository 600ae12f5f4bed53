import WaymarkCore

extension RegionMonitor {
    /// Gives every region of unknown state the state of `fix`, with an initial entry for
    /// those inside that ask for one. The first time, or when many are unknown, they are
    /// established together (`establishedMark`, saved once); a few are given a state each.
    mutating func establish(_ fix: Fix, _ update: inout RegionUpdate) {
        let mark = fix.time?.nanosecondsSince1970 ?? Self.noTimeMark
        let together = establishedMark == Self.unknownMark || unknown.count > Self.individualEstablishLimit
        if together { establishedMark = mark }
        var established: [Int32] = []
        for region in unknown {
            if !together { sinceByRegion[region] = mark }
            guard contains(raw, region) else { continue }
            established.append(region)
            insertSorted(region, into: &inside)
            if let time = fix.time, loiter[Int(region)] >= 0 { dwelling.append(Dwell(region: region, enteredAt: time)) }
            if flags[Int(region)].contains(.initialTrigger) {
                update.transitions.append(transition(.enter, region, at: fix, confirmedAt: fix.time, initial: true))
            }
        }
        update.established = together ? established : unknown
        update.establishedTogether = together
        unknown.removeAll()
        update.establishedInside = established
    }

    /// Walks the regions whose raw membership disagrees with their confirmed state and those
    /// with a pending transition: starts, keeps, cancels or confirms each
    /// (docs/semantics.md §3.3). The deciding position is the rest estimate for a region whose
    /// margin is small beside the fixes' error, else the fix.
    mutating func advancePending(_ fix: Fix, estimate: PositionEstimate?, _ update: inout RegionUpdate) {
        nextPending.removeAll(keepingCapacity: true)
        confirmed.removeAll(keepingCapacity: true)
        symmetricDifference(raw, inside, into: &disagreeing)
        let single = Decider(fix: fix, rest: nil, significance: 1)
        let combined = Decider(fix: fix, rest: estimate, significance: configuration.restSignificance)
        if let estimate { index.containing(estimate.coordinate, into: &estimateRaw) }
        var i = 0
        var k = 0
        while i < disagreeing.count || k < pending.count {
            let region: Int32
            var candidate: Pending?
            var onNewSide = false
            if k == pending.count || (i < disagreeing.count && disagreeing[i] < pending[k].region) {
                region = disagreeing[i]
                onNewSide = true
                i &+= 1
            } else {
                region = pending[k].region
                candidate = pending[k]
                if i < disagreeing.count && disagreeing[i] == region {
                    onNewSide = true
                    i &+= 1
                }
                k &+= 1
            }
            let r = Int(region)
            // At rest, fixes that state an error large beside the region's margin are judged
            // together. Without a stated accuracy a slow hiker's winding path scatters like a
            // phone's wandering error, so single fixes decide as before (BENCHMARKS.md).
            let decider = estimate.map { $0.stated && $0.spread > max(2 * margin[r], configuration.restDecidingSpread) } == true
                ? combined : single
            if let accuracy = fix.horizontalAccuracy, accuracy > worstAccuracy[r] {
                // Too inaccurate for this region: it holds the region's state as it is.
                if let candidate { nextPending.append(candidate) }
                continue
            }
            guard var change = candidate else {
                let started = Pending(region: region, entering: !contains(inside, region), fix: fix)
                if let rule = confirmation(of: started, by: decider, onNewSide: true) {
                    confirmed.append((started, rule, decider.estimate != nil))
                } else {
                    nextPending.append(started)
                }
                continue
            }
            if onNewSide { change.fixes &+= 1 }
            if cancels(change, decider, onNewSide: onNewSide) { continue }
            if !change.deep && !change.firstMeasured {
                change.firstMeasured = true
                change.deep = isDeep(change.fix.coordinate, in: region)
            }
            if !change.deep, decider.estimate == nil ? onNewSide : estimateIsOnNewSide(change) {
                change.deep = isDeep(decider.position, in: region)
            }
            if let rule = confirmation(of: change, by: decider, onNewSide: onNewSide) {
                confirmed.append((change, rule, decider.estimate != nil))
            } else {
                nextPending.append(change)
            }
        }
        swap(&pending, &nextPending)
        for (change, rule, estimated) in confirmed {
            apply(change, confirmedBy: fix, rule: rule, estimated: estimated, &update)
        }
    }

    /// The position a fix's decisions are taken on, and the uncertainty they must clear: at
    /// rest the estimate's (times `significance`), else the fix's stated accuracy (none
    /// stated: none required).
    struct Decider {
        var fix: Fix
        /// The rest estimate, when the device is at rest.
        var estimate: PositionEstimate?
        var uncertainty: Double

        init(fix: Fix, rest: PositionEstimate?, significance: Double) {
            self.fix = fix
            estimate = rest
            uncertainty = rest.map { significance * $0.uncertainty } ?? fix.horizontalAccuracy.map { $0 > 0 ? $0 : 0 } ?? 0
        }

        var position: Coordinate { estimate?.coordinate ?? fix.coordinate }

        /// Whether one fix's error is larger than a region of this characteristic size: then
        /// no position can be wholly inside it, and an entry asks for a quarter of the size.
        func exceeds(size: Double) -> Bool {
            (estimate?.spread ?? fix.horizontalAccuracy ?? 0) > size
        }
    }

    /// Whether the rest estimate lies on the pending change's new side.
    private func estimateIsOnNewSide(_ change: Pending) -> Bool {
        contains(estimateRaw, change.region) == change.entering
    }

    /// Whether the deciding position is back on the old side, clear of the boundary by its
    /// uncertainty (a quarter of the region's size when the uncertainty exceeds the region, as
    /// for an entry): a position straddling the boundary neither confirms nor cancels.
    private func cancels(_ change: Pending, _ decider: Decider, onNewSide: Bool) -> Bool {
        let r = Int(change.region)
        // Only a fix back on the old side can end a crossing; the estimate must agree.
        if onNewSide || (decider.estimate != nil && estimateIsOnNewSide(change)) { return false }
        let required = decider.exceeds(size: 4 * entryCap[r]) ? entryCap[r] : decider.uncertainty
        return required <= 0 || index.distanceToBoundary(ofRegionAt: r, from: decider.position, limit: required) >= required
    }

    /// The rule by which the deciding position confirms `change`, or nil: the new side has held
    /// the region's delay; the position is on the new side by the margin (waived once a fix of
    /// the crossing was that deep, or after the settle time with enough fixes) and by its
    /// uncertainty (for an entry into a region smaller than the uncertainty, a quarter of the
    /// region's size instead, so a small zone can still be entered).
    private func confirmation(of change: Pending, by decider: Decider, onNewSide: Bool) -> RegionTransition.Rule? {
        let r = Int(change.region)
        if decider.estimate == nil ? !onNewSide : !estimateIsOnNewSide(change) { return nil }
        var uncertainty = decider.uncertainty
        if change.entering && decider.exceeds(size: 4 * entryCap[r]) { uncertainty = entryCap[r] }
        var required = max(margin[r], uncertainty)
        var rule = RegionTransition.Rule.untimed
        if let now = decider.fix.time, let start = change.fix.time {
            let held = now.seconds(since: start)
            if held < (change.entering ? enterHold[r] : exitHold[r]) { return nil }
            let settled = held >= configuration.settleTime && change.fixes >= configuration.settleFixes
            rule = change.deep || !settled ? .margin : .settled
            if change.deep || settled { required = uncertainty }
        }
        if required <= 0 { return rule }
        let depth = index.distanceToBoundary(ofRegionAt: r, from: decider.position, limit: required)
        return depth >= required ? rule : nil
    }

    /// Whether `coordinate` is at least the region's hysteresis distance from its boundary.
    private func isDeep(_ coordinate: Coordinate, in region: Int32) -> Bool {
        let depth = margin[Int(region)]
        return depth <= 0 || index.distanceToBoundary(ofRegionAt: Int(region), from: coordinate, limit: depth) >= depth
    }

    private mutating func apply(
        _ change: Pending, confirmedBy fix: Fix, rule: RegionTransition.Rule, estimated: Bool, _ update: inout RegionUpdate
    ) {
        let region = change.region
        if change.entering {
            insertSorted(region, into: &inside)
            if let time = change.fix.time, loiter[Int(region)] >= 0 { dwelling.append(Dwell(region: region, enteredAt: time)) }
        } else {
            removeSorted(region, from: &inside)
            dwelling.removeAll { $0.region == region }
        }
        sinceByRegion[region] = change.fix.time?.nanosecondsSince1970 ?? Self.noTimeMark
        update.transitions.append(
            transition(change.entering ? .enter : .exit, region, at: change.fix, confirmedAt: fix.time, rule: rule, estimated: estimated))
    }

    /// Reports a dwell for each region whose loitering delay has passed with the device inside.
    mutating func checkDwell(_ fix: Fix, _ update: inout RegionUpdate) {
        guard let now = fix.time else { return }
        var k = 0
        while k < dwelling.count {
            let dwell = dwelling[k]
            if contains(raw, dwell.region), now.seconds(since: dwell.enteredAt) >= loiter[Int(dwell.region)] {
                update.transitions.append(transition(.dwell, dwell.region, at: fix, confirmedAt: now))
                dwelling.remove(at: k)
            } else {
                k += 1
            }
        }
    }
}

/// The values in exactly one of the ascending arrays `a` and `b`, ascending.
func symmetricDifference(_ a: [Int32], _ b: [Int32], into result: inout [Int32]) {
    result.removeAll(keepingCapacity: true)
    var i = 0
    var j = 0
    while i < a.count || j < b.count {
        if j == b.count || (i < a.count && a[i] < b[j]) {
            result.append(a[i])
            i &+= 1
        } else if i == a.count || b[j] < a[i] {
            result.append(b[j])
            j &+= 1
        } else {
            i &+= 1
            j &+= 1
        }
    }
}
