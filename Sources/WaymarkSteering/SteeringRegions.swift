import Synchronization
import WaymarkCore
import WaymarkRegions

/// One version of the regions as steering reads them: the regions, their index (for distances
/// to the nearest boundaries) and each one's creation time (which the phone's waypoint `tst`
/// must keep between replies). Built once per version, shared by every device's steering.
public struct SteeringRegions: Sendable {
    public let regions: [Region]
    public let index: RegionIndex
    public let created: [String: Timestamp]
    /// Tells versions apart: a device whose window was made from another version is sent a new
    /// one (`WindowSteering`). Unique in the process unless given.
    public let version: UInt64
    /// Index positions of the beacon regions, by identifier: held in every window (`RegionWindow`).
    public let beacons: [Int]

    private static let versions = Atomic<UInt64>(0)

    /// - Parameter version: the version's own number (the fleet's regions version); nil gives a
    ///   number no other `SteeringRegions` of this process has.
    public init(regions: [Region], created: [String: Timestamp], version: UInt64? = nil) {
        self.regions = regions
        self.index = RegionIndex(regions: regions)
        self.created = created
        self.version = version ?? (Self.versions.add(1, ordering: .relaxed).newValue | 1 << 63)
        self.beacons = regions.indices.filter { regions[$0].beacon != nil }.sorted { regions[$0].identifier < regions[$1].identifier }
    }

    /// The creation time `OwnTracksWaypoint` sends for `region`.
    public func createdAt(_ region: Region) -> Timestamp {
        created[region.identifier] ?? Timestamp(nanosecondsSince1970: 0)
    }
}
