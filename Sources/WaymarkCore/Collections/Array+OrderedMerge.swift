extension Array {
    /// This ordered list and `other`, ordered the same way, as one ordered list in one pass:
    /// `takesFirst(a, b)` says whether `a` (from this list) goes before `b` (from `other`).
    /// Stable: each list keeps its own order.
    public func orderedMerge(with other: [Element], takesFirst: (Element, Element) -> Bool) -> [Element] {
        guard !other.isEmpty else { return self }
        var merged: [Element] = []
        merged.reserveCapacity(count + other.count)
        var (i, j) = (0, 0)
        while i < count || j < other.count {
            if j == other.count || (i < count && takesFirst(self[i], other[j])) {
                merged.append(self[i])
                i += 1
            } else {
                merged.append(other[j])
                j += 1
            }
        }
        return merged
    }
}
