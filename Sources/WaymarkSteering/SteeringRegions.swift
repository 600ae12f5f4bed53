import WaymarkCore
import WaymarkRegions

/// One version of the regions as steering reads them: the regions, their index (for distances
/// to the nearest boundaries) and each one's creation time (which the phone's waypoint `tst`
/// must keep between replies). Built once per version, shared by every device's steering.
public struct SteeringRegions: Sendable {
    public let regions: [Region]
    public let index: RegionIndex
    public let created: [String: Timestamp]

    public init(regions: [Region], created: [String: Timestamp]) {
        self.regions = regions
        self.index = RegionIndex(regions: regions)
        self.created = created
    }

    /// The creation time `OwnTracksWaypoint` sends for `region`.
    public func createdAt(_ region: Region) -> Timestamp {
        created[region.identifier] ?? Timestamp(nanosecondsSince1970: 0)
    }
}
