#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import WaymarkCore

/// Regions held in memory behind a static packed R-tree, answering "which regions contain
/// this point?" exactly.
///
/// Membership rules (docs/semantics.md §3):
/// - **Circles**: a point is inside when its WGS84 geodesic distance to the centre is
///   ≤ the radius (boundary inclusive). A spherical estimate (within 0.56 % of the geodesic
///   distance, see `Geodesic.sphericalDistance`) decides points clearly inside or outside;
///   only points within that margin of the boundary pay for Karney's exact `Geodesic.distance`.
/// - **Polygons**: straight edges in longitude/latitude, planar, as GeoJSON (RFC 7946) reads
///   them; holes are respected and a region of several polygons is their union.
/// - **Boundaries**: a region is a closed set. A point exactly on an edge or a vertex — of the
///   exterior ring *or* of a hole — is inside, just as a point at exactly `radius` is inside a
///   circle. "Exactly on" means the cross product of the edge and the point, computed in
///   `Double`, is zero with the point within the edge's extent; this is exact for vertices
///   and for edges along a meridian or a parallel, and deterministic for any other edge.
///
/// Layout: one flat buffer per kind of record (vertices, rings, polygons/circles, tree boxes,
/// latitude bands), allocated once when the index is built and never changed; a query
/// allocates nothing. The tree's leaves are the regions' parts (each circle, and each
/// polygon of a MultiPolygon separately, so a country's far islands do not inflate one box),
/// ordered by Sort-Tile-Recursive and packed `nodeCapacity` to a node. Rings with more than
/// `bandingThreshold` edges bucket their edges into latitude bands, so a point is tested only
/// against the edges of its band. In front of the tree, a uniform grid lists each cell's parts
/// (`Grid`; crowded cells defer to the tree), and each polygon without holes has a core disc
/// inside it that answers most inside points without an edge test.
public struct RegionIndex: Sendable {
    /// Children per tree node.
    public static let nodeCapacity = 16
    /// Rings with more edges than this are banded, unless the index is built with another value.
    public static let defaultBandingThreshold = 32

    let storage: Storage

    /// Builds the index. Region positions in `regions` are the indices the queries return.
    ///
    /// - Parameter bandingThreshold: rings with more edges than this are bucketed into
    ///   latitude bands; `Int.max` disables banding (the tests compare both paths).
    public init(regions: [Region], bandingThreshold: Int = RegionIndex.defaultBandingThreshold) {
        storage = Storage(regions: regions, bandingThreshold: bandingThreshold)
    }

    /// Number of regions.
    public var count: Int { storage.identifiers.count }

    /// The identifier of the region at `index`.
    public func identifier(at index: Int) -> String { storage.identifiers[index] }

    /// The position of the region's identifier among all identifiers in ascending order;
    /// the monitor sorts transitions by it.
    public func identifierRank(at index: Int) -> Int { Int(storage.identifierRank[index]) }

    /// Replaces the contents of `result` with the indices of the regions containing `c`, in
    /// ascending order. Reuses `result`'s storage, so steady-state queries do not allocate.
    public func containing(_ c: Coordinate, into result: inout [Int32]) {
        result.removeAll(keepingCapacity: true)
        storage.query(x: c.longitude, y: c.latitude, into: &result)
    }

    /// Whether the region at `index` contains `c`, by the same rules as `containing`.
    public func contains(regionAt index: Int, _ c: Coordinate) -> Bool {
        var probe = PointProbe(x: c.longitude, y: c.latitude)
        let s = storage
        for j in Int(s.regionPartStart[index])..<Int(s.regionPartStart[index + 1]) {
            let part = Int(s.regionParts[j])
            if s.nodeBoxes[part].contains(latitude: probe.y, longitude: probe.x),
                s.partContains(part, &probe)
            {
                return true
            }
        }
        return false
    }

    /// The bounding box of the region at `index` (the union of its parts' boxes; a circle's
    /// box is slightly larger than the circle).
    public func boundingBox(ofRegionAt index: Int) -> BoundingBox {
        var box = BoundingBox.empty
        let s = storage
        for j in Int(s.regionPartStart[index])..<Int(s.regionPartStart[index + 1]) {
            box.formUnion(s.nodeBoxes[Int(s.regionParts[j])])
        }
        return box
    }

    /// Bytes held by the index's buffers (geometry, bands, tree, identifiers' storage excluded).
    public var memoryFootprint: Int { storage.byteCount }

    /// The index's shape, for diagnostics and benchmark reports.
    public var statistics: Statistics {
        Statistics(
            regions: count, parts: storage.parts.count, rings: storage.rings.count,
            vertices: storage.vertices.count, bandedRings: storage.rings.reduce(0) { $0 + ($1.bandCount > 0 ? 1 : 0) },
            bandEntries: storage.bandEdges.count, treeLevels: storage.levelCount.count)
    }

    public struct Statistics: Sendable, Equatable {
        public var regions: Int
        public var parts: Int
        public var rings: Int
        public var vertices: Int
        public var bandedRings: Int
        public var bandEntries: Int
        public var treeLevels: Int
    }
}

/// A query point, with its unit vector computed only when a circle needs it.
struct PointProbe {
    let x: Double
    let y: Double
    var ux = 0.0
    var uy = 0.0
    var uz = 0.0
    var hasVector = false

    init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    @inline(__always)
    mutating func prepareVector() {
        if hasVector { return }
        let lat = y * (Double.pi / 180)
        let lon = x * (Double.pi / 180)
        let c = cos(lat)
        ux = c * cos(lon)
        uy = c * sin(lon)
        uz = sin(lat)
        hasVector = true
    }
}
