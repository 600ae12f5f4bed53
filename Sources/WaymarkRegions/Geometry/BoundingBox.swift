import WaymarkCore

/// An axis-aligned box in longitude/latitude degrees, edges inclusive.
///
/// Boxes never wrap the antimeridian: a shape that would needs the full longitude range.
public struct BoundingBox: Sendable, Equatable {
    public var minLatitude: Double
    public var minLongitude: Double
    public var maxLatitude: Double
    public var maxLongitude: Double

    public init(minLatitude: Double, minLongitude: Double, maxLatitude: Double, maxLongitude: Double) {
        self.minLatitude = minLatitude
        self.minLongitude = minLongitude
        self.maxLatitude = maxLatitude
        self.maxLongitude = maxLongitude
    }

    /// The smallest box holding every coordinate; `nil` when there are none.
    public init?<S: Sequence>(enclosing coordinates: S) where S.Element == Coordinate {
        var box = BoundingBox.empty
        for c in coordinates { box.formUnion(c) }
        guard box.minLatitude <= box.maxLatitude else { return nil }
        self = box
    }

    /// The box of a single point.
    public init(_ coordinate: Coordinate) {
        self.init(
            minLatitude: coordinate.latitude, minLongitude: coordinate.longitude,
            maxLatitude: coordinate.latitude, maxLongitude: coordinate.longitude)
    }

    /// A box that contains nothing and grows with `formUnion`.
    static let empty = BoundingBox(
        minLatitude: .infinity, minLongitude: .infinity, maxLatitude: -.infinity, maxLongitude: -.infinity)

    /// The whole WGS84 range.
    public static let world = BoundingBox(minLatitude: -90, minLongitude: -180, maxLatitude: 90, maxLongitude: 180)

    /// Boundary inclusive; NaN is in no box. The four comparisons are combined without
    /// short-circuiting: on random points each would be a hard-to-predict branch, and one
    /// branch on their conjunction costs less than four.
    @inline(__always)
    public func contains(latitude: Double, longitude: Double) -> Bool {
        (bit(minLatitude <= latitude) & bit(latitude <= maxLatitude) & bit(minLongitude <= longitude)
            & bit(longitude <= maxLongitude)) != 0
    }

    public func contains(_ c: Coordinate) -> Bool { contains(latitude: c.latitude, longitude: c.longitude) }

    /// Grows the box to hold `c`.
    public mutating func formUnion(_ c: Coordinate) {
        minLatitude = min(minLatitude, c.latitude)
        maxLatitude = max(maxLatitude, c.latitude)
        minLongitude = min(minLongitude, c.longitude)
        maxLongitude = max(maxLongitude, c.longitude)
    }

    mutating func formUnion(_ b: BoundingBox) {
        minLatitude = min(minLatitude, b.minLatitude)
        maxLatitude = max(maxLatitude, b.maxLatitude)
        minLongitude = min(minLongitude, b.minLongitude)
        maxLongitude = max(maxLongitude, b.maxLongitude)
    }

    var centerLatitude: Double { (minLatitude + maxLatitude) / 2 }
    var centerLongitude: Double { (minLongitude + maxLongitude) / 2 }

    /// The middle of the box.
    public var center: Coordinate { Coordinate(latitude: centerLatitude, longitude: centerLongitude) }
}

/// 1 for true, 0 for false: a flag the compiler sets without a branch.
@inline(__always)
func bit(_ condition: Bool) -> UInt8 { condition ? 1 : 0 }
