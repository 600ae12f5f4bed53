import WaymarkCore

/// Where a point lies relative to one closed ring, in planar longitude/latitude.
enum RingLocation: UInt8 {
    case outside
    /// Exactly on an edge or a vertex (see `RegionIndex` for the rule).
    case boundary
    case inside
}

/// A polygon vertex: longitude as `x`, latitude as `y`, degrees.
struct Vertex: Sendable {
    var x: Double
    var y: Double
}

/// One ring of a compiled polygon: a run of vertices (closed, so `edgeCount + 1` of them)
/// and, for rings with many edges, its latitude bands.
struct RingRecord: Sendable {
    var start: Int32
    var edgeCount: Int32
    /// Index of the ring's first entry in `bandStarts`, or −1 when the ring is not banded.
    var bandOffset: Int32
    var bandCount: Int32
    var box: BoundingBox
    /// Bands per degree of latitude.
    var bandScale: Double
}

/// One entry of the spatial index: a circle or a single polygon (with its holes) of a region.
struct PartRecord: Sendable {
    var region: Int32
    /// For a polygon, its first ring (the exterior; holes follow); for a circle, its index.
    var first: Int32
    /// Rings of a polygon; 0 for a circle.
    var ringCount: Int32
    var isCircle: Bool
    /// A disc wholly inside the polygon (none for circles and polygons with holes): a point in
    /// it is inside without looking at an edge. In the plane of longitude × `coreScale` and
    /// latitude, centred at (`coreX`, `coreY`), squared radius `coreRadius2` (−1: no disc).
    var coreX = 0.0
    var coreY = 0.0
    var coreScale = 1.0
    var coreRadius2 = -1.0

    /// Whether (x, y) is inside the core disc.
    @inline(__always)
    func coreContains(x: Double, y: Double) -> Bool {
        let dx = (x - coreX) * coreScale
        let dy = y - coreY
        return dx * dx + dy * dy < coreRadius2
    }
}

/// A circle prepared for the spherical pre-test: the centre as a unit vector and squared
/// chord lengths that decide "clearly inside" and "clearly outside".
struct CircleRecord: Sendable {
    var center: Coordinate
    var radius: Double
    var ux: Double
    var uy: Double
    var uz: Double
    /// A squared unit-sphere chord at or below this is inside without an exact test.
    var insideChord2: Double
    /// A squared chord above this is outside without an exact test.
    var outsideChord2: Double
}
