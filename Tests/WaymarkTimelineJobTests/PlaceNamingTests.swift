import Foundation
import Testing
import WaymarkCore
import WaymarkPlaces
import WaymarkRegions
import WaymarkServices
@testable import WaymarkTimelineJob

/// Naming: the smallest of the user's regions holding the point wins (its `name` property, else
/// its identifier); without regions the geocoder's place; without place data a coordinate.
@Suite struct PlaceNamingTests {
    static let office = Coordinate(latitude: 48.1, longitude: 11.5)

    /// A square of `side` degrees centred on `centre`.
    static func square(_ centre: Coordinate, side: Double) -> RegionShape {
        let h = side / 2
        let ring = [
            Coordinate(latitude: centre.latitude - h, longitude: centre.longitude - h),
            Coordinate(latitude: centre.latitude - h, longitude: centre.longitude + h),
            Coordinate(latitude: centre.latitude + h, longitude: centre.longitude + h),
            Coordinate(latitude: centre.latitude + h, longitude: centre.longitude - h),
            Coordinate(latitude: centre.latitude - h, longitude: centre.longitude - h),
        ]
        return .polygons([Polygon(exterior: ring)])
    }

    /// A stay at `centre`, named by a timeline over a store holding `regions`.
    static func stayName(at centre: Coordinate, regions: [Region]) async throws -> PlaceName {
        let rig = try TimelineRig()
        if !regions.isEmpty { try rig.store.importRegions(regions, replace: false) }
        let start = Timestamp(nanosecondsSince1970: 1_780_290_000_000_000_000)
        // Ten minutes at the place, then away 5 km: one stay, left.
        var fixes = (0..<60).map { Fix(time: start.adding(seconds: Double($0) * 10), coordinate: centre) }
        let away = Geodesic.destination(from: centre, azimuth: 90, distance: 5_000)
        fixes += (1...60).map {
            Fix(time: start.adding(seconds: 600 + Double($0) * 10), coordinate: Geodesic.destination(from: centre, azimuth: 90, distance: Double($0) * 5_000 / 60))
        }
        fixes += (1...60).map { Fix(time: start.adding(seconds: 1_200 + Double($0) * 10), coordinate: away) }
        try rig.record(fixes)
        let timeline = try await rig.job.timeline(device: "phone", from: start, to: start.adding(seconds: 3_600))
        guard case .stay(_, let place)? = timeline.entries.first else {
            Issue.record("no stay in \(timeline.entries)")
            return PlaceName(label: "", region: nil, lookup: nil)
        }
        return place
    }

    @Test func smallestRegionHoldingThePointWins() async throws {
        let regions = [
            Region(identifier: "city", shape: Self.square(Self.office, side: 0.2), propertiesJSON: #"{"name":"Munich"}"#),
            Region(identifier: "campus", shape: .circle(center: Self.office, radius: 400), propertiesJSON: #"{"name":"Campus"}"#),
            Region(identifier: "building", shape: Self.square(Self.office, side: 0.004), propertiesJSON: #"{"name":"Office"}"#),
            Region(identifier: "elsewhere", shape: .circle(center: Coordinate(latitude: 40, longitude: 3), radius: 50)),
        ]
        let place = try await Self.stayName(at: Self.office, regions: regions)
        #expect(place.label == "Office")
        #expect(place.region == "building")
    }

    @Test func aCircleSmallerThanAPolygonWins() async throws {
        let regions = [
            Region(identifier: "block", shape: Self.square(Self.office, side: 0.01)),
            Region(identifier: "desk", shape: .circle(center: Self.office, radius: 150)),
        ]
        let place = try await Self.stayName(at: Self.office, regions: regions)
        #expect(place.label == "desk")  // no name property: the identifier
        #expect(place.region == "desk")
    }

    @Test func withoutRegionsOrPlaceDataTheCoordinate() async throws {
        let place = try await Self.stayName(at: Self.office, regions: [
            Region(identifier: "far", shape: .circle(center: Coordinate(latitude: 40, longitude: 3), radius: 500), propertiesJSON: #"{"name":"Far"}"#)
        ])
        #expect(place.region == nil)
        #expect(place.lookup == nil)
        #expect(place.label.hasPrefix("48.1") && place.label.contains(", 11."))
        #expect(place.timeZone == "UTC")
    }

    @Test(arguments: [
        (NamedPlace(name: "Potsdam", admin1: "Brandenburg", countryCode: "DE", country: "Germany", coordinate: Coordinate(latitude: 52.4, longitude: 13.06), distance: 1_200), false, "Potsdam, Brandenburg, Germany"),
        (NamedPlace(name: "Potsdam", admin1: "Brandenburg", countryCode: "DE", country: "Germany", coordinate: Coordinate(latitude: 52.4, longitude: 13.06), distance: 9_000), false, "near Potsdam, Brandenburg, Germany"),
        (NamedPlace(name: "Berlin", admin1: "Berlin", countryCode: "DE", country: "Germany", coordinate: Coordinate(latitude: 52.5, longitude: 13.4), distance: 300), false, "Berlin, Germany"),
        (NamedPlace(name: "Vaduz", admin1: nil, countryCode: "LI", country: "Liechtenstein", coordinate: Coordinate(latitude: 47.14, longitude: 9.52), distance: 10), false, "Vaduz, Liechtenstein"),
        (nil, true, "At sea"),
    ] as [(NamedPlace?, Bool, String)])
    func geocodedLabels(place: NamedPlace?, atSea: Bool, label: String) {
        let lookup = PlaceLookup(place: place, timeZone: atSea ? "Etc/GMT+2" : "Europe/Berlin", atSea: atSea)
        #expect(PlaceNamer.label(of: lookup) == label)
    }
}
