import WaymarkCore

extension RegionMonitor {
    /// Takes states saved by an earlier run for regions whose state is still unknown, matched
    /// by identifier (states of other identifiers are ignored), then the moment regions were
    /// established together: the unknown regions it covers are outside from then. A restored
    /// inside region with a loitering delay and no dwell yet waits for its dwell from the saved
    /// entry time.
    public mutating func restore(_ saved: SavedRegionStates) {
        guard !unknown.isEmpty else { return }
        if !saved.states.isEmpty { restore(saved.states) }
        guard let established = saved.established, establishedMark == Self.unknownMark else { return }
        establishedMark = established.since?.nanosecondsSince1970 ?? Self.noTimeMark
        if established.excluding.isEmpty {
            unknown.removeAll()
        } else {
            unknown.removeAll { !established.excluding.contains(index.identifier(at: Int($0))) }
        }
    }

    private mutating func restore(_ states: [SavedRegionState]) {
        var positions: [String: Int32] = [:]
        positions.reserveCapacity(index.count)
        for region in 0..<index.count { positions[index.identifier(at: region)] = Int32(region) }
        for state in states {
            guard let region = positions[state.identifier], sinceByRegion[region] == nil, isUnknown(region) else { continue }
            sinceByRegion[region] = state.since?.nanosecondsSince1970 ?? Self.noTimeMark
            guard state.inside else { continue }
            inside.append(region)
            if !state.dwelled, let entered = state.since, loiter[Int(region)] >= 0 {
                dwelling.append(Dwell(region: region, enteredAt: entered))
            }
        }
        inside.sort()
        unknown.removeAll { sinceByRegion[$0] != nil }
    }

    /// What to save for the region at `index` after an update; nil while it is unknown.
    public func savedState(ofRegionAt index: Int) -> SavedRegionState? {
        let region = Int32(index)
        switch state(ofRegionAt: index) {
        case .unknown: return nil
        case .outside(let since):
            return SavedRegionState(identifier: self.index.identifier(at: index), inside: false, since: since)
        case .inside(let since):
            let waiting = dwelling.contains { $0.region == region }
            return SavedRegionState(
                identifier: self.index.identifier(at: index), inside: true, since: since,
                dwelled: loiter[index] >= 0 && !waiting)
        }
    }
}
