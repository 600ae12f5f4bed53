import WaymarkRegions

/// Which of the geographic regions a device is inside is its **place** (docs/semantics.md §3.7):
/// the highest `priority` (nil: 0), then the smallest (`RegionIndex.characteristicSize`), then
/// the first identifier in code-point order. Ranked once per version of the regions and shared
/// by every device's pipeline (copy-on-write), so finding the place among the few regions a
/// device is inside costs a comparison each.
public struct PlaceRanking: Sendable {
    /// Per region index: its position in the ranking, 0 the best.
    let rank: [Int32]

    /// Ranks the regions of `index`; `priorities[i]` belongs to region `i` (all 0 when empty).
    public init(index: RegionIndex, priorities: [Int] = []) {
        precondition(priorities.isEmpty || priorities.count == index.count, "one priority per region")
        let size = (0..<index.count).map { index.characteristicSize(ofRegionAt: $0) }
        let identifier = (0..<index.count).map { Array(index.identifier(at: $0).unicodeScalars.map(\.value)) }
        let order = (0..<index.count).sorted { a, b in
            let (pa, pb) = priorities.isEmpty ? (0, 0) : (priorities[a], priorities[b])
            if pa != pb { return pa > pb }
            if size[a] != size[b] { return size[a] < size[b] }
            return identifier[a].lexicographicallyPrecedes(identifier[b])
        }
        var rank = [Int32](repeating: 0, count: index.count)
        for (position, region) in order.enumerated() { rank[region] = Int32(position) }
        self.rank = rank
    }

    /// Ranks the geographic regions of a monitor built from `regions` (their order is the index's).
    public init(index: RegionIndex, regions: [Region]) {
        let geographic = regions.geographic
        self.init(index: index, priorities: geographic.count == index.count ? geographic.map { $0.options.priority ?? 0 } : [])
    }

    /// The place among the regions a device is confirmed inside: the best ranked; nil for none.
    public func place(among inside: [Int32]) -> Int32? {
        inside.min { rank[Int($0)] < rank[Int($1)] }
    }
}
