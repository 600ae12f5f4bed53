import WaymarkCore

extension RegionOutline {
    /// `polygon` (`[exterior, hole, …]`) cut into a polygon each side of the antimeridian, as
    /// RFC 7946 §3.1.9 asks of GeoJSON: otherwise map software draws an outline across it as a
    /// band around the whole world.
    ///
    /// What needs it is a circle on the seam: polygon regions are read from GeoJSON, which
    /// arrives cut already. So this cuts the simple case, an exterior ring without holes that
    /// crosses the seam twice (`AntimeridianCrossing`); each piece keeps the ring's direction and
    /// so its orientation, and closes along the meridian. Anything else (a ring around a pole
    /// crosses once; a hole; more crossings) is returned whole.
    public static func cutAtAntimeridian(_ polygon: [[Coordinate]]) -> [[[Coordinate]]] {
        guard polygon.count == 1, let ring = polygon.first, ring.count > 3 else { return [polygon] }
        var crossings: [(edge: Int, crossing: AntimeridianCrossing)] = []
        for edge in 0..<(ring.count - 1) {
            if let crossing = AntimeridianCrossing(from: ring[edge], to: ring[edge + 1]) { crossings.append((edge, crossing)) }
        }
        guard crossings.count == 2 else { return [polygon] }
        let (first, second) = (crossings[0], crossings[1])
        // The vertices after the first crossing up to the second, then after the second round
        // to the first (the closing vertex repeats the first, so it is skipped).
        let inner = Array(ring[(first.edge + 1)...second.edge])
        let outer = Array(ring[(second.edge + 1)..<(ring.count - 1)] + ring[0...first.edge])
        return [
            [[first.crossing.entering] + inner + [second.crossing.leaving, first.crossing.entering]],
            [[second.crossing.entering] + outer + [first.crossing.leaving, second.crossing.entering]],
        ]
    }
}
