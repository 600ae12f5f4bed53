import WaymarkCore

/// A change of a region's membership between two consecutive fixes.
public struct RegionTransition: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
        /// The fix is inside the region and the previous one was not.
        case enter
        /// The fix is outside the region and the previous one was inside.
        case exit
    }

    public var kind: Kind
    /// The region's position in the `[Region]` the index was built from.
    public var regionIndex: Int32
    public var identifier: String
    /// The first fix on the new side of the boundary.
    public var fix: Fix

    public init(kind: Kind, regionIndex: Int32, identifier: String, fix: Fix) {
        self.kind = kind
        self.regionIndex = regionIndex
        self.identifier = identifier
        self.fix = fix
    }
}
