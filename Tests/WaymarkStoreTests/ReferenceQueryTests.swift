import Foundation
import GRDB
import Testing
import WaymarkCore
import WaymarkRegions
import WaymarkTestSupport

@testable import WaymarkStore

@Suite struct ReferenceQueryTests {
    static let center = Coordinate(latitude: 48.858_370, longitude: 2.294_481)

    /// A file store, reopened after the import so queries run on connections that did not
    /// create the schema.
    static func store(_ regions: [Region], in folder: TemporaryDirectory) throws -> WaymarkStore {
        let path = folder.path("regions.sqlite")
        try WaymarkStore(path: path, logger: quietLogger).importRegions(regions, replace: false)
        return try WaymarkStore(path: path, logger: quietLogger)
    }

    @Test(arguments: [0.0, 37, 90, 181, 270, 333])
    func circleMembershipFollowsGeodesicDistance(azimuth: Double) throws {
        let folder = try TemporaryDirectory()
        let store = try Self.store([Sample.eiffel], in: folder)
        let at99 = Geodesic.destination(from: Self.center, azimuth: azimuth, distance: 99)
        let at101 = Geodesic.destination(from: Self.center, azimuth: azimuth, distance: 101)
        #expect(try store.containingRegionIdentifiers(at99) == ["eiffel"])
        #expect(try store.containingRegionIdentifiers(at101) == [])
        #expect(try store.containingRegionIdentifiers(Self.center) == ["eiffel"])
    }

    @Test func spatiaLiteDistanceIsTheEllipsoidalGeodesic() throws {
        // ST_Distance(a, b, 1) agrees with Karney's geodesic (PROJ) far better than the 0.5 %
        // a spherical formula would: the store's circle test is on the ellipsoid.
        let store = try WaymarkStore.temporary(logger: quietLogger)
        let pairs: [(Coordinate, Coordinate)] = [
            (Self.center, Geodesic.destination(from: Self.center, azimuth: 10, distance: 100)),
            (Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 1, longitude: 0)),
            (Coordinate(latitude: -33.86, longitude: 151.21), Coordinate(latitude: 51.47, longitude: -0.45)),
            (Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0.5, longitude: 179.7)),  // nearly antipodal
        ]
        for (a, b) in pairs {
            let spatialite = try store.database.read { db in
                try Double.fetchOne(
                    db, sql: "SELECT ST_Distance(MakePoint(?, ?, 4326), MakePoint(?, ?, 4326), 1)",
                    arguments: [a.longitude, a.latitude, b.longitude, b.latitude])
            }
            let karney = Geodesic.distance(a, b)
            #expect(abs((spatialite ?? 0) - karney) < 1e-6, "\(a) → \(b): \(spatialite ?? .nan) vs \(karney)")
        }
    }

    @Test func polygonContainmentHonoursHolesAndBoundaries() throws {
        let folder = try TemporaryDirectory()
        let store = try Self.store(Sample.all, in: folder)
        func query(_ lat: Double, _ lon: Double) throws -> [String] {
            try store.containingRegionIdentifiers(Coordinate(latitude: lat, longitude: lon))
        }
        #expect(try query(50.2, 8.2) == ["park-with-pond"])  // inside the shell
        #expect(try query(50.5, 8.5) == [])  // in the pond (the hole)
        #expect(try query(50.39, 8.5) == ["park-with-pond"])  // just south of the hole
        #expect(try query(51.2, 8.5) == [])  // north of the park
        #expect(try query(50.0, 8.5) == [])  // on the southern edge: ST_Contains excludes the boundary
        #expect(try query(41.2, -73.8) == ["islands"])  // the second polygon of the MultiPolygon
        #expect(try query(40.9, -73.8) == [])  // between the islands
    }

    @Test func overlappingRegionsAreAllReportedInIdentifierOrder() throws {
        let folder = try TemporaryDirectory()
        let square = Region(
            identifier: "b-square",
            shape: .polygons([Polygon(exterior: rectangle(south: 48.85, west: 2.28, north: 48.87, east: 2.30))]))
        let wide = Region(identifier: "a-wide", shape: .circle(center: Self.center, radius: 5_000))
        let store = try Self.store([Sample.eiffel, square, wide], in: folder)
        #expect(try store.containingRegionIdentifiers(Self.center) == ["a-wide", "b-square", "eiffel"])
        let twoKilometresNorth = Geodesic.destination(from: Self.center, azimuth: 0, distance: 2_000)
        #expect(try store.containingRegionIdentifiers(twoKilometresNorth) == ["a-wide"])
    }

    @Test func circlesAcrossTheAntimeridianAndNearThePole() throws {
        let folder = try TemporaryDirectory()
        let dateLine = Region(
            identifier: "date-line", shape: .circle(center: Coordinate(latitude: -16.5, longitude: 179.9999), radius: 100))
        let pole = Region(
            identifier: "pole", shape: .circle(center: Coordinate(latitude: 89.9995, longitude: 0), radius: 200))
        let store = try Self.store([dateLine, pole], in: folder)
        // About 21 m east of the centre, on the other side of ±180°.
        #expect(try store.containingRegionIdentifiers(Coordinate(latitude: -16.5, longitude: -179.9999)) == ["date-line"])
        // About 56 m from the centre, across the pole.
        #expect(try store.containingRegionIdentifiers(Coordinate(latitude: 89.9999, longitude: 180)) == ["pole"])
        #expect(try store.containingRegionIdentifiers(Coordinate(latitude: 89.99, longitude: 180)) == [])
    }

    @Test(arguments: [
        (Coordinate(latitude: 48.86, longitude: 2.29), 100.0),
        (Coordinate(latitude: -60, longitude: -70), 50_000),
        (Coordinate(latitude: 0, longitude: 0), 1),
        (Coordinate(latitude: 80, longitude: 170), 300_000),
    ] as [(Coordinate, Double)])
    func searchBoxHoldsTheWholeCircle(center: Coordinate, radius: Double) {
        let box = WaymarkStore.searchBox(around: center, radius: radius)
        for azimuth in stride(from: 0.0, to: 360, by: 7.5) {
            let edge = Geodesic.destination(from: center, azimuth: azimuth, distance: radius)
            #expect(box.south <= edge.latitude && edge.latitude <= box.north, "azimuth \(azimuth)")
            #expect(box.west <= edge.longitude && edge.longitude <= box.east, "azimuth \(azimuth)")
        }
    }
}
