import WaymarkCore

extension RegionMonitor {
    /// Takes states saved by an earlier run for regions whose state is still unknown, matched
    /// by identifier (states of other identifiers are ignored). A restored inside region with a
    /// loitering delay and no dwell yet waits for its dwell from the saved entry time.
    public mutating func restore(_ states: [SavedRegionState]) {
        guard !states.isEmpty, !unknown.isEmpty else { return }
        var positions: [String: Int32] = [:]
        positions.reserveCapacity(index.count)
        for region in 0..<index.count { positions[index.identifier(at: region)] = Int32(region) }
        for state in states {
            guard let region = positions[state.identifier], since[Int(region)] == Self.unknownMark else { continue }
            since[Int(region)] = state.since?.nanosecondsSince1970 ?? Self.noTimeMark
            guard state.inside else { continue }
            inside.append(region)
            if !state.dwelled, let entered = state.since, loiter[Int(region)] >= 0 {
                dwelling.append(Dwell(region: region, enteredAt: entered))
            }
        }
        inside.sort()
        unknown.removeAll { since[Int($0)] != Self.unknownMark }
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
