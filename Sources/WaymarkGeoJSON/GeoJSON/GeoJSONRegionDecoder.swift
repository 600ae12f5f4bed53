import WaymarkCore
import WaymarkRegions

/// Decodes the regions of one GeoJSON (RFC 7946) document. Pure: bytes in, regions out.
///
/// Accepted: a FeatureCollection or a single Feature whose geometry is a Polygon or a
/// MultiPolygon (holes respected), a Point with `properties.radius` in metres (a circle), or
/// null with `properties.beacon` `{"uuid":…,"major":…,"minor":…}` (a beacon region).
/// A region's identifier is `properties[idProperty]` when an id property is given; otherwise
/// the feature's `id`, else `properties.identifier`, else `properties.name`. Numbers are
/// allowed and written without a fractional part when integral (`7`, not `7.0`). Each
/// feature's `properties` are kept as compact JSON text in `Region.propertiesJSON`.
public struct GeoJSONRegionDecoder: Sendable {
    /// What to do with a feature that has no identifier.
    public enum UnnamedFeatures: Sendable {
        /// Fail with `missing-identifier` (the default: a region needs a name a user can use).
        case reject
        /// Name it `<file name without extension>#<feature index>`, e.g. `ne_50m_urban_areas#17`,
        /// for data sets that have no identifying property at all.
        case numberByIndex
    }

    public var idProperty: String?
    public var unnamedFeatures: UnnamedFeatures

    public init(idProperty: String? = nil, unnamedFeatures: UnnamedFeatures = .reject) {
        self.idProperty = idProperty
        self.unnamedFeatures = unnamedFeatures
    }

    /// A decoded region and where its feature is.
    public struct DecodedRegion: Sendable {
        public var region: Region
        public var featureIndex: Int
        /// JSON path of the feature (`features[3]`, or empty for a single Feature document).
        public var path: String
        /// Where the feature's identifier (or, when numbered by index, the feature) starts.
        public var location: SourceLocation
    }

    /// Decodes every feature of `bytes`; `file` names the input in errors and locations.
    ///
    /// A FeatureCollection's features are decoded as the parser reaches each one, so only one
    /// feature's JSON tree exists at a time. A syntax error anywhere still comes first, then the
    /// document's own errors, then the first feature that fails — as if the whole file had
    /// been parsed before decoding.
    public func decode(_ bytes: [UInt8], file: String) throws(GeoJSONError) -> [DecodedRegion] {
        let result: Result<[DecodedRegion], GeoJSONError> = bytes.withUnsafeBufferPointer { buffer in
            var context = DecodingContext(bytes: buffer, file: file, options: self)
            var features = DecodedFeatures()
            let root: JSONNode
            do throws(JSONSyntaxError) {
                root = try JSONParser.parse(buffer, streaming: "features") { node, index in
                    context.collect(node, index: index, into: &features)
                }
            } catch {
                return .failure(GeoJSONError(
                    code: .jsonSyntax, message: error.message, file: file,
                    location: SourceLocation(file: file, line: error.line, column: error.column)))
            }
            do throws(GeoJSONError) {
                return .success(try context.document(root, features: features))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

/// A FeatureCollection's features as they were decoded during parsing: the regions, or the
/// first failure (after which the rest are parsed but not decoded).
struct DecodedFeatures {
    var regions: [GeoJSONRegionDecoder.DecodedRegion] = []
    var failure: GeoJSONError?
    /// Identifier → index in `regions`, for duplicates.
    var seen: [String: Int] = [:]
}

/// A step of a JSON path.
enum PathComponent {
    case key(String)
    case index(Int)
}

struct DecodingContext {
    let bytes: UnsafeBufferPointer<UInt8>
    let file: String
    let options: GeoJSONRegionDecoder
    var path: [PathComponent] = []
    var featureIndex: Int?
    var featureIdentifier: String?
    /// Incremental line/column for feature locations, which come in input order.
    var cursorOffset = 0
    var cursorLine = 1
    var cursorColumn = 1

    init(bytes: UnsafeBufferPointer<UInt8>, file: String, options: GeoJSONRegionDecoder) {
        self.bytes = bytes
        self.file = file
        self.options = options
    }

    // MARK: Document and features

    mutating func document(_ root: JSONNode, features decoded: DecodedFeatures) throws(GeoJSONError) -> [GeoJSONRegionDecoder.DecodedRegion] {
        guard case .object = root.value else {
            throw fail(.notGeoJSON, "the document is a JSON \(root.value.typeName); expected a GeoJSON FeatureCollection or Feature object", root)
        }
        let type = try typeName(of: root)
        switch type {
        case "FeatureCollection":
            guard let features = root.member("features") else {
                throw fail(.missingMember, "a FeatureCollection needs a \"features\" array", root)
            }
            path.append(.key("features"))
            // Its elements were decoded as they were parsed (`collect`); the tree keeps none.
            guard case .array = features.value else {
                throw fail(.wrongType, "\"features\" is a \(features.value.typeName); expected an array", features)
            }
            if let failure = decoded.failure { throw failure }
            return decoded.regions
        case "Feature":
            return [try feature(root, index: 0)]
        case "Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon", "GeometryCollection":
            throw fail(
                .bareGeometry,
                "a bare \(type) geometry cannot be a region because it has no identifier; wrap it in a Feature with an \"id\" or properties.name",
                root)
        default:
            throw fail(.notGeoJSON, "unknown GeoJSON type \"\(type)\"; expected FeatureCollection or Feature", root.member("type") ?? root)
        }
    }

    /// Decodes the FeatureCollection's feature `index` into `features`, checking its identifier
    /// against the ones before; the first failure is kept and later features are skipped.
    mutating func collect(_ node: JSONNode, index: Int, into features: inout DecodedFeatures) {
        guard features.failure == nil else { return }
        path = [.key("features"), .index(index)]
        do throws(GeoJSONError) {
            let decoded = try feature(node, index: index)
            if let previous = features.seen[decoded.region.identifier] {
                let first = features.regions[previous]
                throw GeoJSONError(
                    code: .duplicateIdentifier,
                    message: "duplicate identifier \"\(decoded.region.identifier)\"; first used by \(first.path) at \(first.location)",
                    file: file, location: decoded.location, path: decoded.path, featureIndex: index,
                    featureIdentifier: decoded.region.identifier)
            }
            features.seen[decoded.region.identifier] = features.regions.count
            features.regions.append(decoded)
        } catch {
            features.failure = error
        }
        path = []
    }

    mutating func feature(_ node: JSONNode, index: Int) throws(GeoJSONError) -> GeoJSONRegionDecoder.DecodedRegion {
        featureIndex = index
        featureIdentifier = nil
        guard case .object = node.value else {
            throw fail(.wrongType, "a feature is a JSON \(node.value.typeName); expected an object", node)
        }
        let type = try typeName(of: node)
        guard type == "Feature" else {
            throw fail(.notGeoJSON, "expected a Feature, found type \"\(type)\"", node.member("type") ?? node, extra: .key("type"))
        }
        var properties: JSONNode?
        if let p = node.member("properties"), !p.isNull {
            guard case .object = p.value else {
                path.append(.key("properties"))
                throw fail(.wrongType, "\"properties\" is a \(p.value.typeName); expected an object or null", p)
            }
            properties = p
        }
        let (identifier, identifierNode) = try self.identifier(feature: node, properties: properties, index: index)
        featureIdentifier = identifier

        guard let geometry = node.member("geometry") else {
            throw fail(.missingMember, "the feature has no \"geometry\"", node)
        }
        path.append(.key("geometry"))
        let shape = try self.shape(geometry, properties: properties)
        if case .polygons(let polygons) = shape {
            let vertices = polygons.reduce(0) { $0 + $1.exterior.count + $1.holes.reduce(0) { $0 + $1.count } }
            guard vertices <= RegionLimits.maximumVertices else {
                throw fail(.tooManyVertices, "the region has \(vertices) positions; at most \(RegionLimits.maximumVertices)", geometry)
            }
        }
        path.removeLast()

        let options = try regionOptions(properties)
        let location = advanceCursor(to: identifierNode.start)
        let region = Region(
            identifier: identifier, shape: shape, propertiesJSON: properties.map { compactJSON($0) }, options: options)
        featureIndex = nil
        featureIdentifier = nil
        return GeoJSONRegionDecoder.DecodedRegion(
            region: region, featureIndex: index, path: render(path), location: location)
    }

    func typeName(of node: JSONNode) throws(GeoJSONError) -> String {
        guard let type = node.member("type") else {
            throw fail(.missingMember, "the object has no \"type\"", node)
        }
        guard case .string(let s) = type.value else {
            throw fail(.wrongType, "\"type\" is a \(type.value.typeName); expected a string", type, extra: .key("type"))
        }
        return s
    }

    // MARK: Identifier

    mutating func identifier(feature: JSONNode, properties: JSONNode?, index: Int) throws(GeoJSONError)
        -> (String, JSONNode)
    {
        if let idProperty = options.idProperty {
            if let value = properties?.member(idProperty), !value.isNull {
                return (try identifierText(value, [.key("properties"), .key(idProperty)]), value)
            }
        } else {
            if let value = feature.member("id"), !value.isNull {
                return (try identifierText(value, [.key("id")]), value)
            }
            for key in ["identifier", "name"] {
                if let value = properties?.member(key), !value.isNull {
                    return (try identifierText(value, [.key("properties"), .key(key)]), value)
                }
            }
        }
        if options.unnamedFeatures == .numberByIndex {
            return ("\(fileStem(file))#\(index)", feature)
        }
        if let idProperty = options.idProperty {
            path.append(.key("properties"))
            throw fail(
                .missingIdentifier, "the feature has no properties.\(idProperty) (the id property) to name its region",
                properties ?? feature)
        }
        throw fail(
            .missingIdentifier,
            "the feature has no identifier: give it an \"id\", a properties.identifier or a properties.name, or choose an id property",
            feature)
    }

    func identifierText(_ node: JSONNode, _ subpath: [PathComponent]) throws(GeoJSONError) -> String {
        switch node.value {
        case .string(let s):
            if let problem = RegionLimits.problem(withIdentifier: s) { throw fail(.invalidIdentifier, problem, node, extra: subpath) }
            return s
        case .number(let d):
            guard d.isFinite else { throw fail(.invalidIdentifier, "the identifier is not a finite number", node, extra: subpath) }
            return formatNumber(d)
        default:
            throw fail(
                .invalidIdentifier, "the identifier is a \(node.value.typeName); expected a string or a number", node,
                extra: subpath)
        }
    }

    // MARK: Geometry

    mutating func shape(_ geometry: JSONNode, properties: JSONNode?) throws(GeoJSONError) -> RegionShape {
        if let beacon = properties?.member(Self.beaconKey), !beacon.isNull {
            return .beacon(try beaconIdentity(beacon, geometry: geometry))
        }
        if geometry.isNull {
            throw fail(
                .unsupportedGeometry,
                "the feature's geometry is null; a region needs a Polygon, a MultiPolygon, a Point with properties.radius, "
                    + "or (a beacon region) properties.beacon with a uuid",
                geometry)
        }
        guard case .object = geometry.value else {
            throw fail(.wrongType, "the geometry is a \(geometry.value.typeName); expected an object", geometry)
        }
        let type = try typeName(of: geometry)
        switch type {
        case "Polygon", "MultiPolygon", "Point":
            break
        default:
            throw fail(
                .unsupportedGeometry,
                "a \(type) cannot be a region; use a Polygon, a MultiPolygon, or a Point with properties.radius (metres)",
                geometry.member("type") ?? geometry, extra: .key("type"))
        }
        guard let coordinates = geometry.member("coordinates") else {
            throw fail(.missingMember, "the \(type) has no \"coordinates\"", geometry)
        }
        path.append(.key("coordinates"))
        defer { path.removeLast() }
        switch type {
        case "Polygon":
            return .polygons([try polygon(coordinates)])
        case "MultiPolygon":
            let list = try array(coordinates, what: "a MultiPolygon's coordinates")
            guard !list.isEmpty else { throw fail(.emptyGeometry, "the MultiPolygon has no polygons", coordinates) }
            var polygons: [Polygon] = []
            polygons.reserveCapacity(list.count)
            for (k, p) in list.enumerated() {
                path.append(.index(k))
                polygons.append(try polygon(p))
                path.removeLast()
            }
            return .polygons(polygons)
        default:
            let center = try position(coordinates)
            let radius = try self.radius(properties: properties)
            return .circle(center: center, radius: radius)
        }
    }

    mutating func radius(properties: JSONNode?) throws(GeoJSONError) -> Double {
        let saved = path
        defer { path = saved }
        path.removeLast(2)  // back to the feature
        guard let properties, let radius = properties.member("radius"), !radius.isNull else {
            if properties != nil { path.append(.key("properties")) }
            throw fail(
                .missingRadius, "a Point feature needs properties.radius (metres) to be a circular region",
                properties ?? JSONNode(value: .null, start: 0, end: 0))
        }
        path.append(.key("properties"))
        path.append(.key("radius"))
        guard case .number(let r) = radius.value else {
            throw fail(.invalidRadius, "the radius is a \(radius.value.typeName); expected a number of metres", radius)
        }
        guard r.isFinite && r > 0 && r <= RegionLimits.maximumRadius else {
            throw fail(
                .invalidRadius,
                "the radius must be a number of metres > 0 and at most \(formatNumber(RegionLimits.maximumRadius)), not \(formatNumber(r))", radius)
        }
        return r
    }

    mutating func polygon(_ node: JSONNode) throws(GeoJSONError) -> Polygon {
        let list = try array(node, what: "a Polygon's coordinates")
        guard !list.isEmpty else { throw fail(.emptyGeometry, "the polygon has no rings", node) }
        var exterior: [Coordinate] = []
        var holes: [[Coordinate]] = []
        for (k, r) in list.enumerated() {
            path.append(.index(k))
            let ring = try self.ring(r)
            if k == 0 { exterior = ring } else { holes.append(ring) }
            path.removeLast()
        }
        return Polygon(exterior: exterior, holes: holes)
    }

    mutating func ring(_ node: JSONNode) throws(GeoJSONError) -> [Coordinate] {
        let list = try array(node, what: "a linear ring")
        guard list.count >= 4 else {
            throw fail(.ringTooShort, "ring has \(list.count) position\(list.count == 1 ? "" : "s"); a ring needs at least 4", node)
        }
        var ring: [Coordinate] = []
        ring.reserveCapacity(list.count)
        for (k, p) in list.enumerated() {
            path.append(.index(k))
            ring.append(try position(p))
            path.removeLast()
        }
        if ring.first != ring.last {
            let a = ring.first!
            let b = ring.last!
            throw fail(
                .ringNotClosed,
                "ring is not closed: its last position [\(formatNumber(b.longitude)), \(formatNumber(b.latitude))] differs from its first [\(formatNumber(a.longitude)), \(formatNumber(a.latitude))]",
                node)
        }
        return ring
    }

    func position(_ node: JSONNode) throws(GeoJSONError) -> Coordinate {
        guard case .array(let list) = node.value, list.count >= 2 else {
            throw fail(.invalidPosition, "a position must be an array [longitude, latitude]; found \(describe(node))", node)
        }
        guard case .number(let lon) = list[0].value else {
            throw fail(.invalidPosition, "the longitude is a \(list[0].value.typeName); expected a number", list[0], extra: .index(0))
        }
        guard case .number(let lat) = list[1].value else {
            throw fail(.invalidPosition, "the latitude is a \(list[1].value.typeName); expected a number", list[1], extra: .index(1))
        }
        guard lon.isFinite, lon >= -180, lon <= 180 else {
            throw fail(.longitudeOutOfRange, "longitude \(formatNumber(lon)) is outside -180…180", list[0], extra: .index(0))
        }
        guard lat.isFinite, lat >= -90, lat <= 90 else {
            throw fail(.latitudeOutOfRange, "latitude \(formatNumber(lat)) is outside -90…90", list[1], extra: .index(1))
        }
        return Coordinate(latitude: lat, longitude: lon)
    }

    func array(_ node: JSONNode, what: String) throws(GeoJSONError) -> [JSONNode] {
        guard case .array(let list) = node.value else {
            throw fail(.wrongType, "\(what) must be an array; found \(describe(node))", node)
        }
        return list
    }

    func describe(_ node: JSONNode) -> String {
        switch node.value {
        case .array(let list): "an array of \(list.count)"
        case .number(let d): "the number \(formatNumber(d))"
        default: "a \(node.value.typeName)"
        }
    }

    // MARK: Errors and locations

    func fail(_ code: GeoJSONError.Code, _ message: String, _ node: JSONNode, extra: PathComponent...) -> GeoJSONError {
        fail(code, message, node, extra: extra)
    }

    func fail(_ code: GeoJSONError.Code, _ message: String, _ node: JSONNode, extra: [PathComponent]) -> GeoJSONError {
        let (line, column) = lineAndColumn(of: node.start, in: bytes)
        return GeoJSONError(
            code: code, message: message, file: file, location: SourceLocation(file: file, line: line, column: column),
            path: render(path + extra), featureIndex: featureIndex, featureIdentifier: featureIdentifier)
    }

    mutating func advanceCursor(to offset: Int) -> SourceLocation {
        if offset < cursorOffset {
            let (l, c) = lineAndColumn(of: offset, in: bytes)
            return SourceLocation(file: file, line: l, column: c)
        }
        while cursorOffset < offset {
            let b = bytes[cursorOffset]
            if b == 0x0A {
                cursorLine += 1
                cursorColumn = 1
            } else if b & 0xC0 != 0x80 {
                cursorColumn += 1
            }
            cursorOffset += 1
        }
        return SourceLocation(file: file, line: cursorLine, column: cursorColumn)
    }

    /// The value's bytes without insignificant whitespace: the original text, numbers and
    /// escapes exactly as written.
    func compactJSON(_ node: JSONNode) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(node.end - node.start)
        var inString = false
        var escaped = false
        for k in node.start..<node.end {
            let b = bytes[k]
            if inString {
                out.append(b)
                if escaped {
                    escaped = false
                } else if b == UInt8(ascii: "\\") {
                    escaped = true
                } else if b == UInt8(ascii: "\"") {
                    inString = false
                }
            } else {
                switch b {
                case 0x20, 0x0A, 0x0D, 0x09: continue
                case UInt8(ascii: "\""):
                    inString = true
                    out.append(b)
                default: out.append(b)
                }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

private func render(_ path: [PathComponent]) -> String {
    var s = ""
    for component in path {
        switch component {
        case .key(let k):
            if !s.isEmpty { s += "." }
            s += k
        case .index(let i):
            s += "[\(i)]"
        }
    }
    return s
}

/// A number as an identifier or in a message: integers without ".0", others in Swift's
/// shortest round-tripping form.
func formatNumber(_ d: Double) -> String {
    if d.isFinite && d == d.rounded() && abs(d) < 9_007_199_254_740_992 { return String(Int64(d)) }
    return "\(d)"
}

/// `a/b/ne_50m_urban_areas.json` → `ne_50m_urban_areas`.
func fileStem(_ path: String) -> String {
    var name = path.split(separator: "/").last.map(String.init) ?? path
    for suffix in [".geojson", ".json"] where name.hasSuffix(suffix) {
        name.removeLast(suffix.count)
        break
    }
    return name
}
