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

    /// Walks the regions whose raw membership disagrees with their confirmed state: keeps or
    /// starts their pending transitions, drops the others' (the device came back), and
    /// applies those `fix` confirms.
    mutating func advancePending(_ fix: Fix, _ update: inout RegionUpdate) {
        nextPending.removeAll(keepingCapacity: true)
        confirmed.removeAll(keepingCapacity: true)
        var i = 0
        var j = 0
        var k = 0
        while i < raw.count || j < inside.count {
            let region: Int32
            let entering: Bool
            if j == inside.count || (i < raw.count && raw[i] < inside[j]) {
                region = raw[i]
                entering = true
                i &+= 1
            } else if i == raw.count || inside[j] < raw[i] {
                region = inside[j]
                entering = false
                j &+= 1
            } else {
                i &+= 1
                j &+= 1
                continue
            }
            while k < pending.count && pending[k].region < region { k &+= 1 }
            if let accuracy = fix.horizontalAccuracy, accuracy > worstAccuracy[Int(region)] {
                // Too inaccurate for this region (`maxAccuracy`): the fix neither starts, cancels
                // nor confirms its crossing.
                if k < pending.count && pending[k].region == region {
                    nextPending.append(pending[k])
                    k &+= 1
                }
                continue
            }
            var candidate = Pending(region: region, entering: entering, fix: fix)
            if k < pending.count && pending[k].region == region {
                candidate = pending[k]
                k &+= 1
                if !candidate.deep && !candidate.firstMeasured {
                    candidate.firstMeasured = true
                    candidate.deep = isDeep(candidate.fix.coordinate, in: region)
                }
                if !candidate.deep { candidate.deep = isDeep(fix.coordinate, in: region) }
            }
            if let rule = confirmation(of: candidate, by: fix) { confirmed.append((candidate, rule)) } else { nextPending.append(candidate) }
        }
        // A pending crossing of a region the fix was too inaccurate to judge, now back on its
        // old side, waits for a fix that can.
        while k < pending.count {
            if let accuracy = fix.horizontalAccuracy, accuracy > worstAccuracy[Int(pending[k].region)] {
                nextPending.append(pending[k])
            }
            k &+= 1
        }
        nextPending.sort { $0.region < $1.region }
        swap(&pending, &nextPending)
        for (change, rule) in confirmed { apply(change, confirmedBy: fix, rule: rule, &update) }
    }

    /// Whether `fix`, on the new side, confirms `pending` (hysteresis, hold, accuracy): the
    /// hysteresis depth may have been reached at an earlier fix of the crossing (`deep`); the
    /// accuracy is always this fix's.
    /// The rule by which `fix` confirms `pending`, or nil: the region's enter or exit delay
    /// has held, and the fix is the margin past the edge (`margin`; waived once an earlier fix
    /// of the crossing was, or after the settle time: `settled`) and its accuracy past it too.
    /// Untimed fixes confirm on distance alone (`untimed`).
    private func confirmation(of pending: Pending, by fix: Fix) -> RegionTransition.Rule? {
        let region = Int(pending.region)
        let accuracy = fix.horizontalAccuracy.map { $0 > 0 ? $0 : 0 } ?? 0
        var required = max(margin[region], accuracy)
        var rule = RegionTransition.Rule.untimed
        if let now = fix.time, let start = pending.fix.time {
            let held = now.seconds(since: start)
            if held < (pending.entering ? enterHold[region] : exitHold[region]) { return nil }
            let settled = held >= configuration.settleTime
            rule = pending.deep || !settled ? .margin : .settled
            if settled || pending.deep { required = accuracy }
        }
        if required <= 0 { return rule }
        return index.distanceToBoundary(ofRegionAt: region, from: fix.coordinate, limit: required) >= required ? rule : nil
    }

    /// Whether `coordinate` is at least the region's hysteresis distance from its boundary.
    private func isDeep(_ coordinate: Coordinate, in region: Int32) -> Bool {
        let depth = margin[Int(region)]
        return depth <= 0 || index.distanceToBoundary(ofRegionAt: Int(region), from: coordinate, limit: depth) >= depth
    }

    private mutating func apply(_ change: Pending, confirmedBy fix: Fix, rule: RegionTransition.Rule, _ update: inout RegionUpdate) {
        let region = change.region
        if change.entering {
            insertSorted(region, into: &inside)
            if let time = change.fix.time, loiter[Int(region)] >= 0 { dwelling.append(Dwell(region: region, enteredAt: time)) }
        } else {
            removeSorted(region, from: &inside)
            dwelling.removeAll { $0.region == region }
        }
        sinceByRegion[region] = change.fix.time?.nanosecondsSince1970 ?? Self.noTimeMark
        update.transitions.append(transition(change.entering ? .enter : .exit, region, at: change.fix, confirmedAt: fix.time, rule: rule))
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
