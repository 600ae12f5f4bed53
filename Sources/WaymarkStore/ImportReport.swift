/// What `WaymarkStore.importRegions` did, identifiers in input order.
public struct ImportReport: Sendable, Equatable {
    /// Regions that were not in the store and now are.
    public var inserted: [String]
    /// Regions that were in the store and were overwritten (`replace: true`).
    public var replaced: [String]
    /// Regions left out because they are invalid (`skipInvalid: true`; otherwise the import
    /// fails and nothing is written).
    public var rejected: [RejectedRegion]

    public init(inserted: [String] = [], replaced: [String] = [], rejected: [RejectedRegion] = []) {
        self.inserted = inserted
        self.replaced = replaced
        self.rejected = rejected
    }

    /// Regions written by the import.
    public var importedCount: Int { inserted.count + replaced.count }
}
