import WaymarkCore

/// A region file that cannot be used, with what is wrong and where: the file, line and
/// column, the JSON path of the offending field, and the feature it belongs to.
///
/// `description` reads like a compiler diagnostic:
/// `parks.json:12:5: features[3].geometry.coordinates[0]: ring has 3 positions; a ring needs at least 4`.
public struct GeoJSONError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Stable codes for scripts and tests; the message may be reworded, the code will not.
    public enum Code: String, Sendable, Equatable {
        /// The file or folder cannot be read, or a folder holds no region files.
        case unreadable = "unreadable"
        /// The file is not valid JSON.
        case jsonSyntax = "json-syntax"
        /// Valid JSON but not a GeoJSON FeatureCollection or Feature.
        case notGeoJSON = "not-geojson"
        /// A bare geometry: it has no identifier, so it cannot be a region.
        case bareGeometry = "bare-geometry"
        /// A required member is missing (`features`, `geometry`, `coordinates`, `type`).
        case missingMember = "missing-member"
        /// A member has the wrong JSON type (e.g. `coordinates` is not an array).
        case wrongType = "wrong-type"
        /// A geometry type that cannot be a region (LineString, GeometryCollection, null…).
        case unsupportedGeometry = "unsupported-geometry"
        /// No identifier in the id property, `id`, `properties.identifier` or `properties.name`.
        case missingIdentifier = "missing-identifier"
        /// An identifier that is not a non-empty string or a finite number, or breaks
        /// `RegionLimits` (length, control characters, `..` segments).
        case invalidIdentifier = "invalid-identifier"
        /// Two features with the same identifier in one load.
        case duplicateIdentifier = "duplicate-identifier"
        /// A position that is not two or three finite numbers.
        case invalidPosition = "invalid-position"
        case latitudeOutOfRange = "latitude-out-of-range"
        case longitudeOutOfRange = "longitude-out-of-range"
        /// A linear ring with fewer than 4 positions (RFC 7946 §3.1.6).
        case ringTooShort = "ring-too-short"
        /// A linear ring whose last position differs from its first.
        case ringNotClosed = "ring-not-closed"
        /// A Polygon without rings or a MultiPolygon without polygons.
        case emptyGeometry = "empty-geometry"
        /// A Point feature without `properties.radius`.
        case missingRadius = "missing-radius"
        /// A radius that is not a finite number of metres > 0 and ≤ `RegionLimits.maximumRadius`.
        case invalidRadius = "invalid-radius"
        /// A region with more positions than `RegionLimits.maximumVertices`.
        case tooManyVertices = "too-many-vertices"
        /// A monitoring option (`notifyOnEntry`, `loiteringDelay`, …) of the wrong type or range.
        case invalidOption = "invalid-option"
        /// `properties.beacon` that is not `{"uuid": UUID, "major"?: 0…65535, "minor"?: 0…65535}`,
        /// or a beacon region with a geometry.
        case invalidBeacon = "invalid-beacon"
    }

    public var code: Code
    public var message: String
    /// The file (as given to the loader) the error is in, when there is one.
    public var file: String?
    /// Line and column of the offending JSON value.
    public var location: SourceLocation?
    /// JSON path of the offending value, e.g. `features[12].properties.radius`; empty for the
    /// document itself.
    public var path: String
    /// Position of the feature in its collection (0-based), when the error is in a feature.
    public var featureIndex: Int?
    /// The feature's identifier, when it was known before the error.
    public var featureIdentifier: String?

    public init(
        code: Code, message: String, file: String? = nil, location: SourceLocation? = nil, path: String = "",
        featureIndex: Int? = nil, featureIdentifier: String? = nil
    ) {
        self.code = code
        self.message = message
        self.file = file
        self.location = location
        self.path = path
        self.featureIndex = featureIndex
        self.featureIdentifier = featureIdentifier
    }

    public var description: String {
        var text = location?.description ?? file ?? ""
        if !text.isEmpty { text += ": " }
        if !path.isEmpty { text += path }
        if let featureIdentifier { text += (path.isEmpty ? "" : " ") + "(feature \"\(featureIdentifier)\")" }
        if !path.isEmpty || featureIdentifier != nil { text += ": " }
        return text + message
    }
}
