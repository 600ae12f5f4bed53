import Foundation
import WaymarkCore
import WaymarkPlaces
import WaymarkRegions

/// Names points for the timeline (docs/timeline/history.md, "Place names"):
///
/// 1. The smallest of the user's geographic regions holding the point (by area: a circle's
///    πr², a polygon's outer rings less holes), labelled by its `name` property, else its
///    identifier; ties go to the identifier first in order.
/// 2. Otherwise the offline geocoder's nearest place, "Town, Admin1, Country" (the admin1 left
///    out when missing or the same as the town), prefixed "near " when the place is more than
///    `nearDistance` away (a point in the countryside is not *in* the town).
/// 3. At sea: "At sea".
/// 4. Without place data: the coordinate, "52.52000, 13.40500" (five decimals, about a metre).
///
/// The time zone comes from the geocoder whatever names the point (a region has none of its own).
struct PlaceNamer: Sendable {
    /// Metres beyond which a place's name reads "near Town".
    static let nearDistance = 5_000.0

    let places: PlaceIndex?
    private let index: RegionIndex
    private let labels: [String]
    private let areas: [Double]

    init(regions: [Region], places: PlaceIndex?) {
        let geographic = regions.geographic
        self.places = places
        index = RegionIndex(regions: geographic)
        labels = geographic.map { Self.label(of: $0) }
        areas = geographic.map { Self.area(of: $0.shape) }
    }

    func name(_ coordinate: Coordinate) -> PlaceName {
        let lookup = places?.lookup(coordinate)
        var holding: [Int32] = []
        index.containing(coordinate, into: &holding)
        if let smallest = holding.min(by: { (areas[Int($0)], $0) < (areas[Int($1)], $1) }) {
            return PlaceName(label: labels[Int(smallest)], region: index.identifier(at: Int(smallest)), lookup: lookup)
        }
        guard let lookup else { return PlaceName(label: Self.coordinateLabel(coordinate), region: nil, lookup: nil) }
        return PlaceName(label: Self.label(of: lookup), region: nil, lookup: lookup)
    }

    /// "Town, Admin1, Country", "near Town, Admin1, Country" beyond `nearDistance`, or "At sea".
    static func label(of lookup: PlaceLookup) -> String {
        guard let place = lookup.place, !lookup.atSea else { return "At sea" }
        var parts = [place.name]
        if let admin1 = place.admin1, !admin1.isEmpty, admin1 != place.name { parts.append(admin1) }
        parts.append(place.country.isEmpty ? place.countryCode : place.country)
        return (place.distance > nearDistance ? "near " : "") + parts.joined(separator: ", ")
    }

    static func coordinateLabel(_ c: Coordinate) -> String {
        String(format: "%.5f, %.5f", c.latitude, c.longitude)
    }

    /// The region's `name` property when it is a non-empty string, else its identifier.
    static func label(of region: Region) -> String {
        guard let text = region.propertiesJSON, let data = text.data(using: .utf8),
            let properties = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let name = properties["name"] as? String, !name.trimmingCharacters(in: .whitespaces).isEmpty
        else { return region.identifier }
        return name
    }

    /// Square metres, near enough to rank regions: a circle exactly, polygons on a local plane
    /// at their first vertex (the shoelace formula; holes subtract).
    static func area(of shape: RegionShape) -> Double {
        switch shape {
        case .circle(_, let radius): return Double.pi * radius * radius
        case .polygons(let polygons):
            return polygons.reduce(0) { total, polygon in
                total + ringArea(polygon.exterior) - polygon.holes.reduce(0) { $0 + ringArea($1) }
            }
        case .beacon: return .infinity
        }
    }

    private static func ringArea(_ ring: [Coordinate]) -> Double {
        guard let origin = ring.first, ring.count >= 3 else { return 0 }
        let metresPerDegree = 111_320.0
        let xScale = metresPerDegree * cos(origin.latitude * Double.pi / 180)
        var twice = 0.0
        for (a, b) in zip(ring, ring.dropFirst() + [origin]) {
            let ax = (a.longitude - origin.longitude) * xScale
            let ay = (a.latitude - origin.latitude) * metresPerDegree
            let bx = (b.longitude - origin.longitude) * xScale
            let by = (b.latitude - origin.latitude) * metresPerDegree
            twice += ax * by - bx * ay
        }
        return abs(twice) / 2
    }
}
