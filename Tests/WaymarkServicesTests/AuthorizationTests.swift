import Testing
import WaymarkCore
@testable import WaymarkServices

@Suite struct AuthorizationTests {
    static let places: [Coordinate] = [
        Coordinate(latitude: 52.520_008, longitude: 13.404_954),  // Berlin
        Coordinate(latitude: 0, longitude: 0),
        Coordinate(latitude: -33.868_82, longitude: 151.209_29),  // Sydney
        Coordinate(latitude: 78.223_2, longitude: 15.626_7),  // Longyearbyen
        Coordinate(latitude: -77.846_3, longitude: 166.668_2),  // McMurdo
        Coordinate(latitude: 64.837_8, longitude: -147.716_4),  // Fairbanks
        Coordinate(latitude: 65.5, longitude: 179.999_9),  // Chukotka, east of the antimeridian
        Coordinate(latitude: 65.5, longitude: -179.999_9),
        Coordinate(latitude: -16.5, longitude: 180),  // Fiji
        Coordinate(latitude: 89.999, longitude: 45),
        Coordinate(latitude: -90, longitude: -180),
        Coordinate(latitude: 90, longitude: 180),
    ]

    /// The result is a valid coordinate within about half a cell's diagonal of the input, and
    /// coarsening it again changes nothing.
    @Test(arguments: places)
    func coarsensToANearbyCellCentre(place: Coordinate) {
        let centre = ApproximateLocation.coarsen(place)
        #expect(centre.isValid)
        #expect((-180..<180).contains(centre.longitude))
        #expect(Geodesic.distance(place, centre) <= 2_300)
        #expect(ApproximateLocation.coarsen(centre) == centre)
        #expect(ApproximateLocation.coarsen(place) == centre)
    }

    /// Points between a coordinate and its cell's centre are in the same cell, so they map to
    /// the identical coordinate; stepping 100 m at a time away from the centre keeps the same
    /// coordinate until it changes, after 1.4–1.8 km, to a neighbour's centre about 3 km away.
    @Test(arguments: places.filter { abs($0.latitude) < 85 })
    func cellsAreStableAndAboutThreeKilometres(place: Coordinate) {
        let centre = ApproximateLocation.coarsen(place)
        // Longitude difference the short way round (Fiji's 180° has its centre at −179.99°).
        var eastward = centre.longitude - place.longitude
        if eastward > 180 { eastward -= 360 } else if eastward < -180 { eastward += 360 }
        for fraction in [0.0, 0.25, 0.5, 0.99] {
            var longitude = place.longitude + eastward * fraction
            if longitude < -180 { longitude += 360 } else if longitude > 180 { longitude -= 360 }
            let between = Coordinate(
                latitude: place.latitude + (centre.latitude - place.latitude) * fraction, longitude: longitude)
            #expect(ApproximateLocation.coarsen(between) == centre)
        }
        for azimuth in [0.0, 90, 180, 270] {
            var step = 1
            var next = centre
            while next == centre, step < 100 {
                next = ApproximateLocation.coarsen(
                    Geodesic.destination(from: centre, azimuth: azimuth, distance: Double(step) * 100))
                step += 1
            }
            #expect(step >= 14 && step <= 19, "left the cell after \(step - 1) × 100 m going \(azimuth)°")
            // Bands are cut independently, so a neighbour north or south may be offset by up
            // to half a cell east or west (√(3² + 1.5²) ≈ 3.35 km).
            let spacing = Geodesic.distance(centre, next)
            #expect(spacing > 2_700 && spacing < (azimuth == 0 || azimuth == 180 ? 3_400 : 3_300), "neighbour \(spacing) m away going \(azimuth)°")
        }
    }

    /// −180° and 180° are the same meridian and land in the same cell; either side of the
    /// antimeridian stays within ±180°.
    @Test(arguments: [65.5, 0, -16.5, 80.1])
    func antimeridian(latitude: Double) {
        let west = ApproximateLocation.coarsen(Coordinate(latitude: latitude, longitude: -180))
        let east = ApproximateLocation.coarsen(Coordinate(latitude: latitude, longitude: 180))
        #expect(west == east)
        let justEast = ApproximateLocation.coarsen(Coordinate(latitude: latitude, longitude: 179.999_99))
        let justWest = ApproximateLocation.coarsen(Coordinate(latitude: latitude, longitude: -179.999_99))
        for c in [west, justEast, justWest] { #expect(c.isValid && c.longitude > -180 && c.longitude < 180) }
        #expect(justEast.longitude > 179.9 && justWest.longitude < -179.9)
        #expect(Geodesic.distance(justEast, justWest) < 3_300)
    }

    @Test(arguments: [
        (Authorization.Level.whenInUse, Authorization.Precision.precise, true),
        (.always, .precise, true), (.whenInUse, .approximate, false), (.always, .approximate, false),
    ])
    func regionMonitoringNeedsPreciseLocations(level: Authorization.Level, precision: Authorization.Precision, allowed: Bool) {
        let authorization = Authorization(level: level, precision: precision)
        #expect(authorization.allowsRegionMonitoring == allowed)
        #expect(authorization.allowsBeaconMonitoring == allowed)
        #expect(authorization.relaunchesForStandardUpdates == (level == .always))
    }

    @Test func coarsenedRecordDropsAccuracy() {
        let place = Coordinate(latitude: 52.520_008, longitude: 13.404_954)
        let time = Timestamp(secondsSince1970: 1_700_000_000)
        let record = LocationRecord(
            kind: .location, time: time, coordinate: place,
            measurements: .init(horizontalAccuracy: 4, altitude: 35, verticalAccuracy: 7, speed: 1.5), batch: 2)
        #expect(
            record.coarsened()
                == LocationRecord(
                    kind: .location, time: time, coordinate: ApproximateLocation.coarsen(place), measurements: .init(speed: 1.5), batch: 2))
        #expect(record.coarsened().json.hasSuffix(#","speed":1.5,"batch":2}"#), "\(record.coarsened().json)")
        #expect(record.coarsened().coordinate != place)
    }
}
