import Foundation

/// The places as points on the unit sphere in k-d trees: one over all places and one per
/// country, so the nearest place overall or within a country is found in a few dozen
/// distance tests. Straight-line (chord) distance orders points as great-circle distance does,
/// across the antimeridian and at the poles alike.
struct PlaceTree: Sendable {
    /// Nodes in implicit k-d order: the node of range lo..<hi is its middle, split on axis
    /// depth % 3; `place` maps a node to the place's index in the file.
    private let x: [Double]
    private let y: [Double]
    private let z: [Double]
    private let place: [UInt32]
    /// Per country, its node range (the global tree is the last range).
    private let ranges: [Range<Int>]

    init(latitudes: [Int32], longitudes: [Int32], countries: [UInt16], countryCount: Int) {
        let count = latitudes.count
        // Each country's places as a contiguous run, then all places once more.
        var order = (0..<count).sorted { countries[$0] < countries[$1] }
        var ranges: [Range<Int>] = []
        var start = 0
        for country in 0..<countryCount {
            var end = start
            while end < count && Int(countries[order[end]]) == country { end += 1 }
            ranges.append(start..<end)
            start = end
        }
        order += Array(0..<count)
        ranges.append(count..<(2 * count))
        var points = Points(order.map { index in
            let lat = Double(latitudes[index]) * 1e-7 * .pi / 180
            let lon = Double(longitudes[index]) * 1e-7 * .pi / 180
            return (cos(lat) * cos(lon), cos(lat) * sin(lon), sin(lat), UInt32(index))
        })
        for range in ranges { points.arrange(range, depth: 0) }
        x = points.x
        y = points.y
        z = points.z
        place = points.place
        self.ranges = ranges
    }

    /// The index of the place nearest to `coordinate` (degrees), within `country` when given;
    /// nil when there is none (no places, or none in that country).
    func nearest(latitude: Double, longitude: Double, country: Int?) -> Int? {
        let range = country.map { ranges[$0] } ?? ranges[ranges.count - 1]
        guard !range.isEmpty else { return nil }
        let lat = latitude * .pi / 180
        let lon = longitude * .pi / 180
        let query = (cos(lat) * cos(lon), cos(lat) * sin(lon), sin(lat))
        var best = (node: -1, distance: Double.infinity)
        search(query, range.lowerBound, range.upperBound, depth: 0, &best)
        return best.node < 0 ? nil : Int(place[best.node])
    }

    private func search(_ q: (Double, Double, Double), _ lo: Int, _ hi: Int, depth: Int, _ best: inout (node: Int, distance: Double)) {
        guard lo < hi else { return }
        let node = (lo + hi) / 2
        let dx = x[node] - q.0
        let dy = y[node] - q.1
        let dz = z[node] - q.2
        let distance = dx * dx + dy * dy + dz * dz
        if distance < best.distance { best = (node, distance) }
        let axis = depth % 3
        let split = axis == 0 ? -dx : axis == 1 ? -dy : -dz  // query minus node along the axis
        let (near, far) = split < 0 ? ((lo, node), (node + 1, hi)) : ((node + 1, hi), (lo, node))
        search(q, near.0, near.1, depth: depth + 1, &best)
        if split * split < best.distance { search(q, far.0, far.1, depth: depth + 1, &best) }
    }

}

/// The points while the trees are built, one array per coordinate.
private struct Points {
    var x: [Double] = []
    var y: [Double] = []
    var z: [Double] = []
    var place: [UInt32] = []

    init(_ points: [(Double, Double, Double, UInt32)]) {
        x.reserveCapacity(points.count)
        y.reserveCapacity(points.count)
        z.reserveCapacity(points.count)
        place.reserveCapacity(points.count)
        for point in points {
            x.append(point.0)
            y.append(point.1)
            z.append(point.2)
            place.append(point.3)
        }
    }

    mutating func swapAt(_ i: Int, _ j: Int) {
        x.swapAt(i, j)
        y.swapAt(i, j)
        z.swapAt(i, j)
        place.swapAt(i, j)
    }

    /// Puts `range` in k-d order: its middle element splits it on the axis (quickselect).
    mutating func arrange(_ range: Range<Int>, depth: Int) {
        guard range.count > 1 else { return }
        let middle = (range.lowerBound + range.upperBound) / 2
        let axis = depth % 3
        func key(_ i: Int) -> Double { axis == 0 ? x[i] : axis == 1 ? y[i] : z[i] }
        var lo = range.lowerBound
        var hi = range.upperBound - 1
        while lo < hi {
            let pivot = key((lo + hi) / 2)
            var i = lo
            var j = hi
            while i <= j {
                while key(i) < pivot { i += 1 }
                while key(j) > pivot { j -= 1 }
                if i <= j {
                    swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if middle <= j { hi = j } else if middle >= i { lo = i } else { break }
        }
        arrange(range.lowerBound..<middle, depth: depth + 1)
        arrange((middle + 1)..<range.upperBound, depth: depth + 1)
    }
}
