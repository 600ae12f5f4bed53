import Testing
import WaymarkCore
import WaymarkRegions

@testable import WaymarkStore

@Suite struct WKBTests {
    @Test func pointIsLittleEndianLongitudeThenLatitude() throws {
        let bytes = WKB.encode(point: Coordinate(latitude: 2, longitude: 1))
        #expect(bytes == [1, 1, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0xF0, 0x3F] + [0, 0, 0, 0, 0, 0, 0, 0x40])
        #expect(try WKB.decode(bytes) == .point(Coordinate(latitude: 2, longitude: 1)))
    }

    @Test func multiPolygonRoundTripsExactly() throws {
        guard case .polygons(let polygons) = Sample.parkWithPond.shape, case .polygons(let more) = Sample.islands.shape
        else { Issue.record("samples changed"); return }
        let all = polygons + more
        #expect(try WKB.decode(WKB.encode(multiPolygon: all)) == .multiPolygon(all))
    }

    @Test func decodesBigEndianAndLonePolygons() throws {
        // POLYGON((0 0, 1 0, 1 1, 0 0)) in big-endian (XDR).
        var bytes: [UInt8] = [0, 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 4]
        for (x, y) in [(0.0, 0.0), (1, 0), (1, 1), (0, 0)] {
            for value in [x, y] { bytes += withUnsafeBytes(of: value.bitPattern.bigEndian, Array.init) }
        }
        let ring = [(0.0, 0.0), (1, 0), (1, 1), (0, 0)].map { Coordinate(latitude: $0.1, longitude: $0.0) }
        #expect(try WKB.decode(bytes) == .multiPolygon([Polygon(exterior: ring)]))
    }

    @Test(arguments: [
        ([] as [UInt8], "unexpected end"),
        ([2, 1, 0, 0, 0], "byte order"),
        ([1, 2, 0, 0, 0], "geometry type 2"),
        ([1, 0xE9, 0x03, 0, 0], "geometry type 1001"),  // POINT Z
        ([1, 6, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0x7F], "exceeds the remaining bytes"),
        ([1, 1, 0, 0, 0] + [UInt8](repeating: 0, count: 17), "trailing bytes"),
        ([1, 6, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0] + [UInt8](repeating: 0, count: 16), "not a Polygon"),
    ])
    func rejectsWhatItDoesNotUnderstand(bytes: [UInt8], reason: String) {
        #expect {
            try WKB.decode(bytes)
        } throws: { error in
            "\(error)".contains(reason)
        }
    }
}
