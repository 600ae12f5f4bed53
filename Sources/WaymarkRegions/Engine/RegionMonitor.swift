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
        // Both lists are ascending: what left is in `inside` only, what arrived in `scratch` only.
        var changes: [RegionTransition] = []
        changes.reserveCapacity(inside.count + scratch.count)
        appendDifference(inside, minus: scratch, as: .exit, fix, into: &changes)
        let exitCount = changes.count
        appendDifference(scratch, minus: inside, as: .enter, fix, into: &changes)
        sortByIdentifier(&changes, 0..<exitCount)
        sortByIdentifier(&changes, exitCount..<changes.count)
        swap(&inside, &scratch)
        return .transitions(changes)
    }

    private func appendDifference(
        _ a: [Int32], minus b: [Int32], as kind: RegionTransition.Kind, _ fix: Fix,
        into changes: inout [RegionTransition]
    ) {
        var j = 0
        for region in a {
            while j < b.count && b[j] < region { j += 1 }
            if j < b.count && b[j] == region { continue }
            changes.append(
                RegionTransition(kind: kind, regionIndex: region, identifier: index.identifier(at: Int(region)), fix: fix))
        }
    }

    /// Insertion sort by identifier rank: the runs are a handful of transitions.
    private func sortByIdentifier(_ changes: inout [RegionTransition], _ range: Range<Int>) {
        guard range.count > 1 else { return }
        for i in (range.lowerBound + 1)..<range.upperBound {
            var k = i
            let rank = index.identifierRank(at: Int(changes[k].regionIndex))
            while k > range.lowerBound && index.identifierRank(at: Int(changes[k - 1].regionIndex)) > rank {
                changes.swapAt(k, k - 1)
                k -= 1
            }
        }
    }
}
