import WaymarkCore
import WaymarkRegions

/// Independent reference implementations the engine is checked against: the textbook
/// crossing-number test (W. R. Franklin's PNPOLY) and Karney's geodesic distance directly.
enum Reference {
    static func pnpoly(_ ring: [Coordinate], _ p: Coordinate) -> Bool {
        var inside = false
        var j = ring.count - 1
        for i in 0..<ring.count {
            let a = ring[i]
            let b = ring[j]
            if (a.latitude > p.latitude) != (b.latitude > p.latitude)
                && p.longitude
                    < (b.longitude - a.longitude) * (p.latitude - a.latitude) / (b.latitude - a.latitude) + a.longitude
            {
                inside.toggle()
            }
            j = i
        }
        return inside
    }

    static func contains(_ region: Region, _ p: Coordinate) -> Bool {
        switch region.shape {
        case .circle(let center, let radius):
            return Geodesic.distance(center, p) <= radius
        case .polygons(let polygons):
            return polygons.contains { polygon in
                pnpoly(polygon.exterior, p) && !polygon.holes.contains { pnpoly($0, p) }
            }
        case .beacon:
            return false
        }
    }

    static func containing(_ regions: [Region], _ p: Coordinate) -> [Int32] {
        regions.indices.filter { contains(regions[$0], p) }.map(Int32.init)
    }
}

func coordinate(_ lon: Double, _ lat: Double) -> Coordinate { Coordinate(latitude: lat, longitude: lon) }

func ring(_ points: [(Double, Double)]) -> [Coordinate] {
    var r = points.map { coordinate($0.0, $0.1) }
    r.append(r[0])
    return r
}

func fix(_ lon: Double, _ lat: Double, second: Int = 0) -> Fix {
    Fix(time: Timestamp(nanosecondsSince1970: Int64(second) * 1_000_000_000), coordinate: coordinate(lon, lat))
}
