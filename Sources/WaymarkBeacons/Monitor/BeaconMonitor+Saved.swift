import WaymarkCore
import WaymarkRegions

extension BeaconMonitor {
    /// Takes states saved by an earlier run for regions whose state is still unknown, matched by
    /// identifier (others are ignored). A restored inside region exits at its saved last
    /// sighting plus its timeout unless a matching advertisement comes first: a beacon that went
    /// away while the daemon was down still gets its exit.
    public mutating func restore(_ states: [SavedRegionState]) {
        guard !states.isEmpty else { return }
        var positions: [String: Int] = [:]
        for (position, region) in regions.enumerated() { positions[region.identifier] = position }
        for state in states {
            guard let r = positions[state.identifier], membership[r] == .unknown else { continue }
            since[r] = state.since?.nanosecondsSince1970 ?? 0
            if state.inside, let seen = state.lastSeen ?? state.since {
                membership[r] = .inside
                lastSeen[r] = seen.nanosecondsSince1970
                schedule(Int32(r), at: lastSeen[r] + timeout[r])
            } else {
                membership[r] = .outside
                lastSeen[r] = state.lastSeen?.nanosecondsSince1970 ?? 0
            }
        }
    }

    /// What to save for the region at `index`; nil while it is unknown.
    public func savedState(ofRegionAt index: Int) -> SavedRegionState? {
        switch state(ofRegionAt: index) {
        case .unknown: return nil
        case .inside(let since), .outside(let since):
            return SavedRegionState(
                identifier: regions[index].identifier, inside: membership[index] == .inside, since: since,
                lastSeen: lastSeen(ofRegionAt: index))
        }
    }
}
