import Foundation
import Testing
import WaymarkCore
import WaymarkExport
import WaymarkTestSupport

/// Douglas–Peucker with a tolerance in metres keeps every original point within the tolerance
/// of the simplified line, measured on the WGS84 ellipsoid with Karney geodesics (not with the
/// plane the simplifier uses).
@Suite struct SimplificationTests {
    /// Distance in metres from `p` to the geodesic from `a` to `b`: golden-section search for
    /// the nearest point along it (the distance is unimodal along a short geodesic).
    static func distance(_ p: Coordinate, toGeodesicFrom a: Coordinate, to b: Coordinate) -> Double {
        let (length, azimuth, _) = Geodesic.inverse(a, b)
        func at(_ s: Double) -> Double { Geodesic.distance(p, Geodesic.destination(from: a, azimuth: azimuth, distance: s)) }
        guard length > 0 else { return Geodesic.distance(p, a) }
        var low = 0.0
        var high = length
        let ratio = (5.0.squareRoot() - 1) / 2
        var x1 = high - ratio * (high - low)
        var x2 = low + ratio * (high - low)
        var f1 = at(x1)
        var f2 = at(x2)
        for _ in 0..<48 {
            if f1 < f2 {
                high = x2; x2 = x1; f2 = f1; x1 = high - ratio * (high - low); f1 = at(x1)
            } else {
                low = x1; x1 = x2; f1 = f2; x2 = low + ratio * (high - low); f2 = at(x2)
            }
        }
        return min(f1, f2, Geodesic.distance(p, a), Geodesic.distance(p, b))
    }

    /// Simplifies `points` and returns the kept ones with their indices in the input.
    static func simplify(_ points: [(fix: Fix, startsSegment: Bool)], tolerance: Double) -> [(index: Int, startsSegment: Bool)] {
        var simplifier = TrackSimplifier(tolerance: tolerance)
        var kept: [TrackSimplifier.Kept] = []
        for point in points { simplifier.add(point.fix, startsSegment: point.startsSegment, into: &kept) }
        simplifier.finish(into: &kept)
        var result: [(Int, Bool)] = []
        var index = 0
        for point in kept {
            while points[index].fix != point.fix { index += 1 }
            result.append((index, point.startsSegment))
            index += 1
        }
        return result
    }

    static let files = ["bikeride.gpx", "skytraq-miniHomer2_8.gpx", "endomondo.gpx", "korita-zbevnica.gpx", "cerknicko-jezero.gpx", "tcxtest.gpx", "testneighboursearch.gpx"]

    @Test(arguments: files, [2.0, 15.0])
    func everyOriginalPointStaysWithinTheTolerance(file: String, tolerance: Double) throws {
        let points = try trackPoints(ProjectPaths.sharedData("gpx/" + file).path)
        let kept = Self.simplify(points, tolerance: tolerance)
        #expect(kept.count < points.count, "\(file): nothing was simplified")
        // Every segment's first and last points are kept, and segments start where they did.
        let starts = points.indices.filter { points[$0].startsSegment }
        #expect(kept.filter(\.startsSegment).map(\.index) == starts)
        for (start, end) in zip(starts, starts.dropFirst().map { $0 - 1 } + [points.count - 1]) {
            #expect(kept.contains { $0.index == end }, "\(file): segment end \(end) dropped")
            #expect(kept.contains { $0.index == start })
        }
        var worst = 0.0
        for (a, b) in zip(kept, kept.dropFirst()) where !b.startsSegment {
            for index in (a.index + 1)..<b.index {
                let d = Self.distance(points[index].fix.coordinate, toGeodesicFrom: points[a.index].fix.coordinate, to: points[b.index].fix.coordinate)
                worst = max(worst, d)
            }
        }
        #expect(worst <= tolerance, "\(file): a point is \(worst) m from the simplified line (tolerance \(tolerance) m)")
        // And the tolerance is used, not wasted: some point lies near it.
        #expect(worst > tolerance * 0.5, "\(file): worst \(worst) m")
    }

    @Test func aStraightLineKeepsOnlyItsEnds() {
        let points = (0...100).map { (fix: fix(north: Double($0) * 10, seconds: Double($0)), startsSegment: $0 == 0) }
        #expect(Self.simplify(points, tolerance: 1).map(\.index) == [0, 100])
    }

    @Test(arguments: [(4.9, true), (5.1, false)])
    func aBendIsKeptOnlyBeyondTheTolerance(tolerance: Double, kept: Bool) {
        // A 5 m kink in the middle of a 200 m line.
        let points = [fix(north: 0), fix(north: 100, east: 5), fix(north: 200)].enumerated().map { (fix: $1, startsSegment: $0 == 0) }
        #expect(Self.simplify(points, tolerance: tolerance).count == (kept ? 3 : 2))
    }

    @Test func windowsBoundMemoryAndStillKeepTheGuarantee() {
        // 20,000 points along a 30 km wiggle: several windows by count and by radius.
        var points: [(fix: Fix, startsSegment: Bool)] = []
        for i in 0..<20_000 {
            let step = Double(i)
            points.append((fix(north: step * 1.5, east: 8 * sin(step / 40), seconds: step), i == 0))
        }
        let kept = Self.simplify(points, tolerance: 3)
        #expect(kept.first?.index == 0 && kept.last?.index == points.count - 1)
        for (a, b) in zip(kept, kept.dropFirst()) {
            for index in stride(from: a.index + 1, to: b.index, by: 7) {
                #expect(Self.distance(points[index].fix.coordinate, toGeodesicFrom: points[a.index].fix.coordinate, to: points[b.index].fix.coordinate) <= 3)
            }
        }
    }
}
