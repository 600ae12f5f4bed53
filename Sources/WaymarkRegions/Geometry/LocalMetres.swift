#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Metres per degree of latitude and of longitude at a latitude on WGS84 (the series of the
/// meridional and parallel arc lengths; within about 1 cm per km). Used to measure short
/// distances to polygon edges, which are straight in longitude/latitude, in a local plane.
struct LocalMetres {
    let perDegreeLatitude: Double
    let perDegreeLongitude: Double

    init(latitude: Double) {
        let phi = latitude * Double.pi / 180
        perDegreeLatitude = 111_132.954 - 559.822 * cos(2 * phi) + 1.175 * cos(4 * phi)
        perDegreeLongitude = max(111_412.84 * cos(phi) - 93.5 * cos(3 * phi), 0)
    }
}

/// Distance in a plane from (px, py) to the segment (ax, ay)–(bx, by).
@inline(__always)
func planarDistance(_ px: Double, _ py: Double, _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Double {
    let dx = bx - ax
    let dy = by - ay
    let length2 = dx * dx + dy * dy
    var t = length2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / length2 : 0
    t = min(max(t, 0), 1)
    let ex = ax + t * dx - px
    let ey = ay + t * dy - py
    return (ex * ex + ey * ey).squareRoot()
}
