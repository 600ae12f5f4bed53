import WaymarkCore
import WaymarkRegions

/// Well-Known Binary (OGC Simple Features 1.2.1 §8.2) for the three geometry types the store
/// keeps: Point, Polygon and MultiPolygon, two-dimensional, x = longitude and y = latitude in
/// degrees. The store writes exactly these bytes into SpatiaLite (`GeomFromWKB`) and reads
/// `ST_AsBinary` back through the decoder, so the geometry on disk is the engine's geometry,
/// coordinate for coordinate.
enum WKB {
    /// OGC geometry type codes for XY geometries.
    enum GeometryType: UInt32 {
        case point = 1
        case polygon = 3
        case multiPolygon = 6
    }

    /// The decoded forms the store uses.
    enum Geometry: Equatable {
        case point(Coordinate)
        case multiPolygon([Polygon])
    }

    // MARK: Encoding (little-endian, NDR)

    static func encode(point: Coordinate) -> [UInt8] {
        var writer = Writer()
        writer.header(.point)
        writer.coordinate(point)
        return writer.bytes
    }

    static func encode(multiPolygon polygons: [Polygon]) -> [UInt8] {
        var writer = Writer()
        writer.header(.multiPolygon)
        writer.uint32(UInt32(polygons.count))
        for polygon in polygons {
            writer.header(.polygon)
            writer.uint32(UInt32(1 + polygon.holes.count))
            for ring in [polygon.exterior] + polygon.holes {
                writer.uint32(UInt32(ring.count))
                for coordinate in ring { writer.coordinate(coordinate) }
            }
        }
        return writer.bytes
    }

    private struct Writer {
        var bytes: [UInt8] = []

        mutating func header(_ type: GeometryType) {
            bytes.append(1)  // NDR: little-endian
            uint32(type.rawValue)
        }

        mutating func uint32(_ value: UInt32) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }

        mutating func coordinate(_ c: Coordinate) {
            double(c.longitude)
            double(c.latitude)
        }

        mutating func double(_ value: Double) {
            withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        }
    }

    // MARK: Decoding (either byte order)

    /// Why a byte string is not a geometry the store understands.
    struct DecodingError: Error, Equatable, CustomStringConvertible {
        var offset: Int
        var reason: String
        var description: String { "WKB at byte \(offset): \(reason)" }
    }

    /// Decodes a Point, Polygon or MultiPolygon; a lone Polygon decodes as a one-element
    /// MultiPolygon, the form the store keeps.
    static func decode(_ bytes: [UInt8]) throws(DecodingError) -> Geometry {
        var reader = Reader(bytes: bytes)
        let geometry: Geometry
        switch try reader.header() {
        case .point:
            geometry = .point(try reader.coordinate())
        case .polygon:
            geometry = .multiPolygon([try reader.polygonBody()])
        case .multiPolygon:
            let count = try reader.count(minimumBytesEach: 9)
            var polygons: [Polygon] = []
            polygons.reserveCapacity(count)
            for _ in 0..<count {
                let offset = reader.offset
                guard try reader.header() == .polygon else {
                    throw DecodingError(offset: offset, reason: "a MultiPolygon member is not a Polygon")
                }
                polygons.append(try reader.polygonBody())
            }
            geometry = .multiPolygon(polygons)
        }
        guard reader.offset == bytes.count else {
            throw DecodingError(offset: reader.offset, reason: "\(bytes.count - reader.offset) trailing bytes")
        }
        return geometry
    }

    private struct Reader {
        let bytes: [UInt8]
        var offset = 0
        var littleEndian = true

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func header() throws(DecodingError) -> GeometryType {
            let start = offset
            switch try byte() {
            case 0: littleEndian = false
            case 1: littleEndian = true
            case let other: throw DecodingError(offset: start, reason: "byte order marker \(other) is neither 0 nor 1")
            }
            let code = try uint32()
            guard let type = GeometryType(rawValue: code) else {
                throw DecodingError(
                    offset: start + 1, reason: "geometry type \(code) is not an XY Point, Polygon or MultiPolygon")
            }
            return type
        }

        mutating func polygonBody() throws(DecodingError) -> Polygon {
            let ringCount = try count(minimumBytesEach: 4)
            guard ringCount > 0 else { throw DecodingError(offset: offset - 4, reason: "a Polygon without rings") }
            var rings: [[Coordinate]] = []
            rings.reserveCapacity(ringCount)
            for _ in 0..<ringCount {
                let pointCount = try count(minimumBytesEach: 16)
                var ring: [Coordinate] = []
                ring.reserveCapacity(pointCount)
                for _ in 0..<pointCount { ring.append(try coordinate()) }
                rings.append(ring)
            }
            return Polygon(exterior: rings[0], holes: Array(rings.dropFirst()))
        }

        mutating func coordinate() throws(DecodingError) -> Coordinate {
            let x = try double()
            let y = try double()
            return Coordinate(latitude: y, longitude: x)
        }

        /// A 32-bit element count, checked against the bytes left so a corrupt count cannot
        /// make the decoder reserve gigabytes.
        mutating func count(minimumBytesEach: Int) throws(DecodingError) -> Int {
            let start = offset
            let value = Int(try uint32())
            guard value <= (bytes.count - offset) / minimumBytesEach else {
                throw DecodingError(offset: start, reason: "count \(value) exceeds the remaining bytes")
            }
            return value
        }

        mutating func byte() throws(DecodingError) -> UInt8 {
            guard offset < bytes.count else { throw DecodingError(offset: offset, reason: "unexpected end") }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func uint32() throws(DecodingError) -> UInt32 {
            UInt32(truncatingIfNeeded: try integer(byteCount: 4))
        }

        mutating func double() throws(DecodingError) -> Double {
            Double(bitPattern: try integer(byteCount: 8))
        }

        private mutating func integer(byteCount: Int) throws(DecodingError) -> UInt64 {
            guard bytes.count - offset >= byteCount else {
                throw DecodingError(offset: offset, reason: "unexpected end")
            }
            var value: UInt64 = 0
            for index in 0..<byteCount {
                let byte = UInt64(bytes[offset + (littleEndian ? index : byteCount - 1 - index)])
                value |= byte << (8 * UInt64(index))
            }
            offset += byteCount
            return value
        }
    }
}
