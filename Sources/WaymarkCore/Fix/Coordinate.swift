/// A WGS84 position in degrees.
///
/// Latitude is in −90…90, longitude in −180…180 for every coordinate that reaches the
/// engine; readers reject anything else with a located error.
public struct Coordinate: Sendable, Hashable {
    /// Degrees north of the equator, −90…90.
    public var latitude: Double
    /// Degrees east of Greenwich, −180…180.
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Whether both components are finite and within their WGS84 ranges.
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite
            && (-90...90).contains(latitude) && (-180...180).contains(longitude)
    }
}
