/// The crossing-number test over one edge from `a` to `b`, with exact-boundary detection.
///
/// The ray runs from the point towards +longitude. An edge counts when its endpoints lie on
/// different sides of the half-open rule `y > py`; whether the ray crosses it is the sign of
/// one cross product, the same value that, when zero, puts the point on the edge. Because
/// one computed value decides both, the answer is deterministic and consistent.
/// Returns `true` when the point lies on the edge.
@inline(__always)
func crossEdge(_ a: Vertex, _ b: Vertex, _ px: Double, _ py: Double, _ inside: inout Bool) -> Bool {
    let aAbove = a.y > py
    let bAbove = b.y > py
    if aAbove != bAbove {
        let cross = (b.x - a.x) * (py - a.y) - (px - a.x) * (b.y - a.y)
        if cross == 0 { return true }
        if (cross > 0) == bAbove { inside.toggle() }
    } else if a.y == py {
        // The edge touches the point's latitude only at `a`, or lies along it.
        if a.x == px { return true }
        if b.y == py && min(a.x, b.x) <= px && px <= max(a.x, b.x) { return true }
    }
    return false
}

/// Locates a point against every edge of a ring (the brute-force path). The same decisions
/// as `crossEdge` edge by edge, accumulated without branches (on a ring around the point the
/// crossing edges come at no predictable place); only an endpoint at the point's latitude,
/// which is rare, takes a branch.
@inline(__always)
func locateBruteForce(
    _ v: UnsafeMutableBufferPointer<Vertex>, start: Int, edgeCount: Int, _ px: Double, _ py: Double
) -> RingLocation {
    var inside: UInt8 = 0
    var boundary: UInt8 = 0
    var i = start
    let end = start + edgeCount
    var a = v[i]
    var aAbove = a.y > py
    while i < end {
        let b = v[i &+ 1]
        let bAbove = b.y > py
        let straddles = bit(aAbove != bAbove)
        let cross = (b.x - a.x) * (py - a.y) - (px - a.x) * (b.y - a.y)
        inside ^= straddles & bit((cross > 0) == bAbove)
        boundary |= straddles & bit(cross == 0)
        if a.y == py, !(aAbove != bAbove) {
            // The edge touches the point's latitude only at `a`, or lies along it.
            if a.x == px { return .boundary }
            if b.y == py && min(a.x, b.x) <= px && px <= max(a.x, b.x) { return .boundary }
        }
        a = b
        aAbove = bAbove
        i &+= 1
    }
    if boundary != 0 { return .boundary }
    return inside != 0 ? .inside : .outside
}

/// The band of a latitude: monotone in `y`, so an edge spanning `a…b` is listed in every
/// band from `bandIndex(a)` to `bandIndex(b)` and a point at `a ≤ y ≤ b` finds it.
@inline(__always)
func bandIndex(_ y: Double, minY: Double, scale: Double, count: Int32) -> Int {
    let k = (y - minY) * scale
    if !(k > 0) { return 0 }
    let top = Int(count) - 1
    return k >= Double(top) ? top : Int(k)
}
