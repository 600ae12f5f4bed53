import WaymarkCore
import WaymarkRegions

/// Where the map sits on the picture and which part of the Earth it shows: an equirectangular
/// projection scaled so that one pixel is the same distance east–west and north–south at the
/// centre (WGS84 metres per degree measured with Karney geodesics).
///
/// Pixel = affine function of longitude and latitude, so the same frame georeferences the
/// picture exactly: a world file or a KML `LatLonBox` describes it without resampling. At hiking
/// and cycling scales the distortion is negligible; for a continent-wide track the scale bar
/// holds at the centre latitude only.
public struct MapFrame: Sendable, Equatable {
    /// Top-left corner of the map on the picture, and its size, pixels.
    public let origin: PicturePoint
    public let width: Double
    public let height: Double
    /// The extent shown, degrees: the map's edges.
    public let west, east, south, north: Double
    /// Metres on the ground per pixel (at the centre).
    public let metresPerPixel: Double

    /// A frame `width` pixels wide showing `bounds` (with a margin of `padding` of its size on
    /// each side and at least `minimumSpan` metres across), its height following the bounds'
    /// shape within `heightRange`; the extent grows in the short direction when the height is
    /// clamped, so the scale stays the same both ways.
    public init(
        fitting bounds: BoundingBox, origin: PicturePoint, width: Double, heightRange: ClosedRange<Double>,
        padding: Double = 0.06, minimumSpan: Double = 400
    ) {
        let centre = bounds.center
        let perDegree = Self.metresPerDegree(at: centre)
        var spanX = max((bounds.maxLongitude - bounds.minLongitude) * perDegree.longitude * (1 + 2 * padding), minimumSpan)
        var spanY = max((bounds.maxLatitude - bounds.minLatitude) * perDegree.latitude * (1 + 2 * padding), minimumSpan)
        var pixelsPerMetre = width / spanX
        var height = spanY * pixelsPerMetre
        if height > heightRange.upperBound {
            height = heightRange.upperBound
            pixelsPerMetre = height / spanY
            spanX = width / pixelsPerMetre
        } else if height < heightRange.lowerBound {
            height = heightRange.lowerBound
            spanY = height / pixelsPerMetre
        }
        self.origin = origin
        self.width = width
        self.height = height.rounded()
        self.metresPerPixel = 1 / pixelsPerMetre
        let halfLongitude = spanX / 2 / perDegree.longitude
        let halfLatitude = self.height / 2 * metresPerPixel / perDegree.latitude
        west = centre.longitude - halfLongitude
        east = centre.longitude + halfLongitude
        south = centre.latitude - halfLatitude
        north = centre.latitude + halfLatitude
    }

    /// The pixel of a coordinate (outside the frame for coordinates outside the extent), taken
    /// the short way round from the centre (`unwrapped`).
    public func point(_ coordinate: Coordinate) -> PicturePoint {
        PicturePoint(
            origin.x + (unwrapped(coordinate.longitude) - west) / (east - west) * width,
            origin.y + (north - coordinate.latitude) / (north - south) * height)
    }

    /// `longitude` written within 180° of the frame's centre: a frame over the antimeridian has
    /// edges past ±180° (it fits `TrackOverview.bounds`), and a point just east of the seam
    /// (−179.9°) belongs beside 179.9°, not a world's width away. Unchanged within 180°.
    public func unwrapped(_ longitude: Double) -> Double {
        Coordinate.longitude(longitude, near: (west + east) / 2)
    }

    /// Degrees of longitude and latitude per pixel.
    public var degreesPerPixel: (longitude: Double, latitude: Double) {
        ((east - west) / width, (north - south) / height)
    }

    /// The extent as bounds.
    public var bounds: BoundingBox { BoundingBox(minLatitude: south, minLongitude: west, maxLatitude: north, maxLongitude: east) }

    /// Metres per degree of longitude and of latitude at `coordinate` (from 0.001° geodesics).
    static func metresPerDegree(at coordinate: Coordinate) -> (longitude: Double, latitude: Double) {
        let latitude = min(89.9, max(-89.9, coordinate.latitude))
        let step = 0.0005
        let northSouth = Geodesic.distance(
            Coordinate(latitude: latitude - step, longitude: 0), Coordinate(latitude: latitude + step, longitude: 0))
        let eastWest = Geodesic.distance(
            Coordinate(latitude: latitude, longitude: -step), Coordinate(latitude: latitude, longitude: step))
        return (eastWest / (2 * step), northSouth / (2 * step))
    }
}
