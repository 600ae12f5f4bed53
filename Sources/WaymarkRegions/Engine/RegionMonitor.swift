import WaymarkCore

/// What one fix changed: the first fix establishes the state, later fixes report transitions.
public enum RegionUpdate: Sendable, Equatable {
    /// The first fix: the indices of the regions containing it, ascending. Not transitions
    /// (SEMANTICS §3: no event at registration).
    case initial(inside: [Int32])
    /// Exits first, then enters, each in ascending identifier order. Empty (and not
    /// allocated) when membership did not change.
    case transitions([RegionTransition])
}

/// The membership state machine over an index: feed fixes in time order, get enter/exit
/// transitions.
///
/// This first version reports a crossing on the first fix on the other side of the boundary;
/// hysteresis, accuracy and sparse-fix interpolation (SEMANTICS §3) build on it.
public struct RegionMonitor: Sendable {
    public let index: RegionIndex
    /// Indices of the regions containing the last fix, ascending; empty before the first fix.
    public private(set) var inside: [Int32] = []
    public private(set) var hasState = false
    private var scratch: [Int32] = []

    public init(index: RegionIndex) {
        self.index = index
        inside.reserveCapacity(16)
        scratch.reserveCapacity(16)
    }

    /// Updates the membership with `fix` and returns what changed.
    public mutating func process(_ fix: Fix) -> RegionUpdate {
        index.containing(fix.coordinate, into: &scratch)
        guard hasState else {
            hasState = true
            swap(&inside, &scratch)
            return .initial(inside: inside)
        }
        if scratch == inside { return .transitions([]) }
        var exits: [RegionTransition] = []
        var enters: [RegionTransition] = []
        // Both lists are ascending: one merge finds what left and what arrived.
        var i = 0
        var j = 0
        while i < inside.count || j < scratch.count {
            if j == scratch.count || (i < inside.count && inside[i] < scratch[j]) {
                exits.append(transition(.exit, inside[i], fix))
                i += 1
            } else if i == inside.count || scratch[j] < inside[i] {
                enters.append(transition(.enter, scratch[j], fix))
                j += 1
            } else {
                i += 1
                j += 1
            }
        }
        swap(&inside, &scratch)
        let index = self.index
        exits.sort { index.identifierRank(at: Int($0.regionIndex)) < index.identifierRank(at: Int($1.regionIndex)) }
        enters.sort { index.identifierRank(at: Int($0.regionIndex)) < index.identifierRank(at: Int($1.regionIndex)) }
        return .transitions(exits + enters)
    }

    private func transition(_ kind: RegionTransition.Kind, _ region: Int32, _ fix: Fix) -> RegionTransition {
        RegionTransition(kind: kind, regionIndex: region, identifier: index.identifier(at: Int(region)), fix: fix)
    }
}
