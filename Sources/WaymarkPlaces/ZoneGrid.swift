/// The time-zone boundaries as a grid of 0.25° cells over the world. Each cell lists the ring
/// edges that touch it (grouped by zone) and knows which zone holds its centre; a point's zone
/// then follows from the centre's by counting, per zone, the edges that the segment from the
/// centre to the point crosses — only that cell's edges, never a whole ring.
struct ZoneGrid: Sendable {
    static let cellSize = 0.25
    static let columns = 1440
    static let rows = 720
    static let none = UInt16.max

    /// Vertices in degrees ×10⁷; an edge is a vertex and the next one in the same ring.
    private let longitudes: [Int32]
    private let latitudes: [Int32]
    /// Per cell `c`, its edges are `edgeStarts[cellStarts[c]..<cellStarts[c + 1]]`, with the
    /// zone of each in `edgeZones` (each zone's edges contiguous).
    private let cellStarts: [UInt32]
    private let edgeStarts: [UInt32]
    private let edgeZones: [UInt16]
    /// The zone holding each cell's centre, or `none`.
    private let centreZones: [UInt16]

    init(_ data: PlaceData) {
        longitudes = data.longitudes
        latitudes = data.latitudes
        // Edges zone by zone, so that each cell's list holds each zone's edges in one run.
        let rings = data.rings.sorted { $0.zone < $1.zone }
        let cellCount = Self.columns * Self.rows
        var counts = [UInt32](repeating: 0, count: cellCount + 1)
        Self.forEachEdge(rings, data) { _, _, a, b in
            let cells = Self.cells(a, b)
            for row in cells.rows { for column in cells.columns { counts[row * Self.columns + column] += 1 } }
        }
        var running: UInt32 = 0
        for cell in 0...cellCount {
            let count = counts[cell]
            counts[cell] = running
            running += count
        }
        cellStarts = counts
        var cursor = counts
        var starts = [UInt32](repeating: 0, count: Int(running))
        var zones = [UInt16](repeating: 0, count: Int(running))
        Self.forEachEdge(rings, data) { edge, zone, a, b in
            let cells = Self.cells(a, b)
            for row in cells.rows {
                for column in cells.columns {
                    let slot = Int(cursor[row * Self.columns + column])
                    starts[slot] = UInt32(edge)
                    zones[slot] = zone
                    cursor[row * Self.columns + column] += 1
                }
            }
        }
        edgeStarts = starts
        edgeZones = zones
        centreZones = Self.centres(rings, data)
    }

    var vertexCount: Int { longitudes.count }

    /// The zone holding `(longitude, latitude)` (degrees), or nil in none.
    func zone(longitude: Double, latitude: Double) -> Int? {
        let column = Self.column(longitude)
        let row = Self.row(latitude)
        let cell = row * Self.columns + column
        let centreX = -180 + (Double(column) + 0.5) * Self.cellSize
        let centreY = -90 + (Double(row) + 0.5) * Self.cellSize
        let centreZone = centreZones[cell]
        var index = Int(cellStarts[cell])
        let end = Int(cellStarts[cell + 1])
        var centreZoneSeen = false
        while index < end {
            let zone = edgeZones[index]
            var crossings = 0
            while index < end && edgeZones[index] == zone {
                let edge = Int(edgeStarts[index])
                let ax = Double(longitudes[edge]) * 1e-7
                let ay = Double(latitudes[edge]) * 1e-7
                let bx = Double(longitudes[edge + 1]) * 1e-7
                let by = Double(latitudes[edge + 1]) * 1e-7
                if Self.crosses(centreX, centreY, longitude, latitude, ax, ay, bx, by) { crossings += 1 }
                index += 1
            }
            let centreInside = zone == centreZone
            if centreInside { centreZoneSeen = true }
            if centreInside != (crossings % 2 == 1) { return Int(zone) }
        }
        return centreZone != Self.none && !centreZoneSeen ? Int(centreZone) : nil
    }

    /// Whether segment p→q crosses edge a→b; an endpoint on the other's line counts on one side
    /// only (half-open), so a ring is crossed an odd number of times exactly when p and q lie on
    /// different sides of it.
    @inline(__always)
    private static func crosses(
        _ px: Double, _ py: Double, _ qx: Double, _ qy: Double,
        _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double
    ) -> Bool {
        let a = (qx - px) * (ay - py) - (qy - py) * (ax - px)
        let b = (qx - px) * (by - py) - (qy - py) * (bx - px)
        guard (a > 0) != (b > 0) else { return false }
        let p = (bx - ax) * (py - ay) - (by - ay) * (px - ax)
        let q = (bx - ax) * (qy - ay) - (by - ay) * (qx - ax)
        return (p > 0) != (q > 0)
    }

    static func column(_ longitude: Double) -> Int {
        min(columns - 1, max(0, Int(((longitude + 180) / cellSize).rounded(.down))))
    }

    static func row(_ latitude: Double) -> Int {
        min(rows - 1, max(0, Int(((latitude + 90) / cellSize).rounded(.down))))
    }

    /// Calls `body(edge, zone, a, b)` for every edge a→b (degrees), ring by ring.
    private static func forEachEdge(
        _ rings: [(zone: UInt16, start: Int, count: Int)], _ data: PlaceData,
        _ body: (Int, UInt16, (x: Double, y: Double), (x: Double, y: Double)) -> Void
    ) {
        for ring in rings {
            for edge in ring.start..<(ring.start + ring.count - 1) {
                body(
                    edge, ring.zone, (Double(data.longitudes[edge]) * 1e-7, Double(data.latitudes[edge]) * 1e-7),
                    (Double(data.longitudes[edge + 1]) * 1e-7, Double(data.latitudes[edge + 1]) * 1e-7))
            }
        }
    }

    /// The cells the bounding box of edge a→b touches.
    private static func cells(
        _ a: (x: Double, y: Double), _ b: (x: Double, y: Double)
    ) -> (columns: ClosedRange<Int>, rows: ClosedRange<Int>) {
        (column(min(a.x, b.x))...column(max(a.x, b.x)), row(min(a.y, b.y))...row(max(a.y, b.y)))
    }

    /// The zone holding each cell's centre: per row of centres, a sweep from the west along the
    /// edges that cross the row's latitude (half-open in latitude, as `crosses`).
    private static func centres(_ rings: [(zone: UInt16, start: Int, count: Int)], _ data: PlaceData) -> [UInt16] {
        var crossings: [(row: Int32, x: Double, zone: UInt16)] = []
        forEachEdge(rings, data) { _, zone, a, b in
            guard a.y != b.y else { return }
            var row = max(0, Int(((min(a.y, b.y) + 90) / cellSize - 0.5).rounded(.up)) - 1)
            while row < rows {
                let y = -90 + (Double(row) + 0.5) * cellSize
                if y >= max(a.y, b.y) { break }
                if (a.y > y) != (b.y > y) {
                    crossings.append((Int32(row), a.x + (y - a.y) * (b.x - a.x) / (b.y - a.y), zone))
                }
                row += 1
            }
        }
        crossings.sort { $0.row != $1.row ? $0.row < $1.row : $0.x < $1.x }
        var centres = [UInt16](repeating: none, count: columns * rows)
        var next = 0
        for row in 0..<rows {
            var inside: [UInt16] = []
            for column in 0..<columns {
                let x = -180 + (Double(column) + 0.5) * cellSize
                while next < crossings.count && crossings[next].row == row && crossings[next].x < x {
                    let zone = crossings[next].zone
                    if let at = inside.firstIndex(of: zone) { inside.remove(at: at) } else { inside.append(zone) }
                    next += 1
                }
                centres[row * columns + column] = inside.first ?? none
            }
            while next < crossings.count && crossings[next].row == row { next += 1 }
        }
        return centres
    }
}
