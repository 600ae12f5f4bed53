import Testing
import WaymarkCore
import WaymarkRegions
@testable import WaymarkExport
@testable import WaymarkRender
import WaymarkTestSupport

/// Issue 48, finding 6: a PNG export hung in cairo, a core pinned for minutes, when every
/// elevation was the same value ≥ 10¹⁷ (`tick += 5` never moved; the axis divided by zero).
/// Axes are now counted ticks, at most `AxisTicks.maximumCount`, and degenerate ranges flat.
@Suite struct DegenerateElevationTests {
    static let cases: [(name: String, altitudes: [Double])] = [
        ("all 1e17", [1e17]),
        ("all 1e308", [1e308]),
        ("all -1e308", [-1e308]),
        ("all equal and small", [412]),
        ("a NaN and infinity mix", [.nan, .infinity, 400, -.infinity, 401]),
        ("both ends of the doubles", [.greatestFiniteMagnitude, -.greatestFiniteMagnitude]),
        ("subnormals", [.leastNonzeroMagnitude, -.leastNonzeroMagnitude]),
    ]

    @Test(arguments: [1e17, 1e308, -1e308, 412, 0, .leastNonzeroMagnitude, 9.3e18])
    func anAxisOverOneValueIsBounded(_ value: Double) {
        let axis = AxisTicks(low: value, high: value, minimumSpan: 20, count: 4)
        #expect((1...AxisTicks.maximumCount).contains(axis.values.count))
        #expect(axis.values.allSatisfy { $0.isFinite })
        #expect(axis.fraction(value) >= 0 && axis.fraction(value) <= 1)
    }

    @Test func anAxisAtAHugeMagnitudeIsFlatAndASmallOneIsRound() {
        #expect(AxisTicks(low: 1e17, high: 1e17, minimumSpan: 20, count: 4).isFlat)
        #expect(AxisTicks(low: 1e17, high: 1e17, minimumSpan: 20, count: 4).values == [1e17])
        let small = AxisTicks(low: 412, high: 412, minimumSpan: 20, count: 4)
        #expect(!small.isFlat && small.values == [400, 405, 410, 415, 420, 425])
        #expect(AxisTicks(low: -.greatestFiniteMagnitude, high: .greatestFiniteMagnitude, minimumSpan: 20, count: 4).values.count <= AxisTicks.maximumCount)
    }

    @Test func aDistanceAxisIsBoundedWhateverItsStep() {
        #expect(AxisTicks(from: 0, to: 1e300, step: 1e-300).values.count == AxisTicks.maximumCount)
        #expect(AxisTicks(from: 0, to: .infinity, step: 1).values == [0])
        #expect(AxisTicks(from: 0, to: 10, step: 0).values == [0])
        #expect(AxisTicks(from: 0, to: 1000, step: 200).values == [0, 200, 400, 600, 800, 1000])
    }

    @Test func niceNumbersOfNonsenseEnd() {
        #expect(NiceNumber.atMost(.infinity) == 1 && NiceNumber.atMost(.nan) == 1 && NiceNumber.atMost(0) == 1)
        #expect(NiceNumber.atMost(.leastNonzeroMagnitude) > 0)
    }

    /// Whatever a painter computes, cairo is handed coordinates it can represent.
    @Test func cairoIsHandedOnlyCoordinatesItCanRepresent() throws {
        #expect(CairoCanvas.bounded(.nan) == 0 && CairoCanvas.bounded(1e17) == CairoCanvas.coordinateLimit)
        #expect(CairoCanvas.bounded(-.infinity) == -CairoCanvas.coordinateLimit && CairoCanvas.bounded(123.5) == 123.5)
        let directory = try TemporaryDirectory()
        let canvas = try CairoCanvas(width: 20, height: 20, path: directory.path("lines.png"))
        canvas.move(to: PicturePoint(1, 1))
        canvas.line(to: PicturePoint(1e17, .infinity))
        canvas.line(to: PicturePoint(.nan, 5))
        canvas.paint(fill: nil, stroke: PictureStroke(PicturePalette.ink, width: 2))
        try canvas.finish()
        #expect(try PNGImage(path: directory.path("lines.png")).width == 20)
    }

    /// The whole export through cairo: it returns, with a valid PNG of the asked size.
    @Test(arguments: 0..<cases.count)
    func aPNGOfADegenerateProfileIsDrawn(_ index: Int) throws {
        let altitudes = Self.cases[index].altitudes
        let points = (0..<60).map { i in fix(north: Double(i) * 50, seconds: Double(i) * 10, altitude: altitudes[i % altitudes.count]) }
        var statistics = TrackStatisticsAccumulator()
        var box = BoundingBox(points[0].coordinate)
        for (i, point) in points.enumerated() {
            statistics.add(point, startsSegment: i == 0)
            box.formUnion(point.coordinate)
        }
        let overview = TrackOverview(name: Self.cases[index].name, statistics: statistics.result, bounds: box, events: [], regions: [])
        let layout = PictureLayout(bounds: box, width: 500, kind: .picture)
        let hasProfile = layout.profile != nil
        #expect(hasProfile, "the picture has an elevation profile")
        let directory = try TemporaryDirectory()
        let path = directory.path("profile.png")
        var picture = MapPicture(canvas: try CairoCanvas(width: 500, height: Int(layout.height), path: path), layout: layout, overview: overview)
        for (i, point) in points.enumerated() { try picture.write(point, startsSegment: i == 0) }
        try picture.finish()
        let image = try PNGImage(path: path)
        #expect(image.width == 500 && image.height == Int(layout.height), "\(Self.cases[index].name)")
    }
}
