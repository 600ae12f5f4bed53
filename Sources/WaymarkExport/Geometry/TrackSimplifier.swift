import WaymarkCore

/// Streaming Douglas–Peucker simplification of a track with a tolerance in metres: every input
/// point stays within `tolerance` (WGS84, horizontal) of the simplified line.
///
/// Method. Points are gathered in windows of at most `windowPoints` points lying within
/// `windowRadius` metres of the window's first point; each window is projected onto a
/// `LocalPlane` at its first point and simplified with `DouglasPeucker`. A window's last point
/// is kept and starts the next window, and every segment's first and last points are kept, so
/// the guarantee holds for the whole line. The decision uses `effectiveTolerance`: the
/// tolerance less 0.01 % and 2 cm, which covers the plane's worst error within 10 km (see
/// `LocalPlane`), so the guarantee holds for distances measured on the ellipsoid.
///
/// Memory: one window, about `windowPoints` × (a `Fix` and two `Double`s) ≈ 0.6 MB, whatever
/// the track's length. The cost is at most one extra kept point per window.
public struct TrackSimplifier: Sendable {
    public static let windowPoints = 4096
    public static let windowRadius = 10_000.0

    /// Metres.
    public let tolerance: Double
    /// The tolerance the plane computation uses (see above).
    public let effectiveTolerance: Double

    private var window: [Fix] = []
    private var xs: [Double] = []
    private var ys: [Double] = []
    private var plane: LocalPlane?
    /// Whether the window's first point is the first of its segment (and not yet written).
    private var windowStartsSegment = false

    /// - Parameter tolerance: metres, more than 0.05.
    public init(tolerance: Double) {
        precondition(tolerance > 0.05, "tolerance must exceed 5 cm")
        self.tolerance = tolerance
        self.effectiveTolerance = tolerance * (1 - 1e-4) - 0.02
        window.reserveCapacity(Self.windowPoints)
        xs.reserveCapacity(Self.windowPoints)
        ys.reserveCapacity(Self.windowPoints)
    }

    /// A kept point and whether it starts a segment.
    public typealias Kept = (fix: Fix, startsSegment: Bool)

    /// Takes the next point; appends to `kept` each point that is kept, in order, once it is
    /// decided.
    public mutating func add(_ fix: Fix, startsSegment: Bool, into kept: inout [Kept]) {
        if startsSegment {
            flush(emitLast: true, into: &kept)
        } else if let plane, window.count >= Self.windowPoints
            || Geodesic.sphericalDistance(plane.origin, fix.coordinate) > Self.windowRadius * 0.99
        {
            flush(emitLast: false, into: &kept)
        }
        if window.isEmpty {
            plane = LocalPlane(origin: fix.coordinate)
            windowStartsSegment = startsSegment
        }
        let (x, y) = plane!.project(fix.coordinate)
        window.append(fix)
        xs.append(x)
        ys.append(y)
    }

    /// Appends what is left of the last segment.
    public mutating func finish(into kept: inout [Kept]) {
        flush(emitLast: true, into: &kept)
    }

    /// Simplifies the window and emits its kept points. Unless `emitLast`, the last point is
    /// held back to start the next window (it is kept either way).
    private mutating func flush(emitLast: Bool, into kept: inout [Kept]) {
        guard !window.isEmpty else { return }
        let keep = DouglasPeucker.keep(xs: xs, ys: ys, tolerance: effectiveTolerance)
        let end = emitLast ? window.count : window.count - 1
        var first = true
        for index in 0..<end where keep[index] {
            kept.append((window[index], first && windowStartsSegment))
            first = false
        }
        if emitLast {
            window.removeAll(keepingCapacity: true)
            xs.removeAll(keepingCapacity: true)
            ys.removeAll(keepingCapacity: true)
            plane = nil
        } else {
            let last = window[window.count - 1]
            window.removeAll(keepingCapacity: true)
            xs.removeAll(keepingCapacity: true)
            ys.removeAll(keepingCapacity: true)
            let origin = LocalPlane(origin: last.coordinate)
            plane = origin
            // A one-point window emitted nothing: its point still starts the segment.
            windowStartsSegment = windowStartsSegment && first
            window.append(last)
            xs.append(0)
            ys.append(0)
        }
    }
}

/// A `TrackWriter` that simplifies the track before passing it on.
public struct SimplifyingWriter<Base: TrackWriter>: TrackWriter {
    public private(set) var base: Base
    private var simplifier: TrackSimplifier
    private var kept: [TrackSimplifier.Kept] = []
    /// Points passed on so far.
    public private(set) var keptCount = 0

    public init(_ base: Base, tolerance: Double) {
        self.base = base
        self.simplifier = TrackSimplifier(tolerance: tolerance)
    }

    public mutating func write(_ fix: Fix, startsSegment: Bool) throws {
        simplifier.add(fix, startsSegment: startsSegment, into: &kept)
        try passOn()
    }

    public mutating func finish() throws {
        simplifier.finish(into: &kept)
        try passOn()
        try base.finish()
    }

    private mutating func passOn() throws {
        for point in kept { try base.write(point.fix, startsSegment: point.startsSegment) }
        keptCount += kept.count
        kept.removeAll(keepingCapacity: true)
    }
}
