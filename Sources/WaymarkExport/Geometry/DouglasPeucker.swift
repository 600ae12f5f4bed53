/// Douglas–Peucker line simplification on plane coordinates (metres): marks the points to keep
/// so that every point lies within `tolerance` of the chain of kept points between which it
/// falls. The first and last points are always kept.
///
/// Iterative (an explicit stack), so a long window cannot overflow the call stack; O(n log n)
/// typical, O(n²) worst case; no allocation beyond the `keep` array and the stack.
public enum DouglasPeucker {
    /// - Returns: one flag per point, true where the point is kept.
    public static func keep(xs: [Double], ys: [Double], tolerance: Double) -> [Bool] {
        let count = xs.count
        var keep = [Bool](repeating: false, count: count)
        guard count > 0 else { return keep }
        keep[0] = true
        keep[count - 1] = true
        guard count > 2 else { return keep }
        var stack: [(Int, Int)] = [(0, count - 1)]
        while let (first, last) = stack.popLast() {
            guard last - first > 1 else { continue }
            var farthest = first
            var largest = -1.0
            for index in (first + 1)..<last {
                let distance = distanceToSegment(
                    xs[index], ys[index], xs[first], ys[first], xs[last], ys[last])
                if distance > largest {
                    largest = distance
                    farthest = index
                }
            }
            if largest > tolerance {
                keep[farthest] = true
                stack.append((first, farthest))
                stack.append((farthest, last))
            }
        }
        return keep
    }

    /// Distance from (px, py) to the segment from (ax, ay) to (bx, by).
    public static func distanceToSegment(
        _ px: Double, _ py: Double, _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double
    ) -> Double {
        let dx = bx - ax
        let dy = by - ay
        let lengthSquared = dx * dx + dy * dy
        var t = 0.0
        if lengthSquared > 0 { t = max(0, min(1, ((px - ax) * dx + (py - ay) * dy) / lengthSquared)) }
        let ex = px - (ax + t * dx)
        let ey = py - (ay + t * dy)
        return (ex * ex + ey * ey).squareRoot()
    }
}
