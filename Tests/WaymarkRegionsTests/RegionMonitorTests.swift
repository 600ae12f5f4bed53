import Foundation
import Testing
import WaymarkCore
import WaymarkRegions

/// Three regions whose identifiers sort differently from their indices:
/// 0 "zeta" = [0,2]², 1 "alpha" = [1,3]², 2 "mid" = [0,3]×[0,1] (degrees: huge, so the default
/// hysteresis is the 200 m cap).
private let squares = [
    Region(identifier: "zeta", shape: .polygons([Polygon(exterior: ring([(0, 0), (2, 0), (2, 2), (0, 2)]))])),
    Region(identifier: "alpha", shape: .polygons([Polygon(exterior: ring([(1, 1), (3, 1), (3, 3), (1, 3)]))])),
    Region(identifier: "mid", shape: .polygons([Polygon(exterior: ring([(0, 0), (3, 0), (3, 1), (0, 1)]))])),
]

/// Runs `fixes` through `monitor`, returning every transition as "kind id @time/confirmed".
private func run(_ monitor: inout RegionMonitor, _ fixes: [Fix]) -> [String] {
    fixes.flatMap { monitor.process($0).transitions }.map { t in
        let time = t.fix.time.map { Int($0.secondsSince1970) }.map(String.init) ?? "-"
        let confirmed = t.confirmedAt.map { Int($0.secondsSince1970) }.map(String.init) ?? "-"
        return "\(t.kind.rawValue) \(t.identifier) @\(time)/\(confirmed)" + (t.crossed ? " crossed" : "") + (t.initial ? " initial" : "")
    }
}

@Test("the first fix establishes the state, with no transitions")
func establishesWithoutEvents() {
    var monitor = RegionMonitor(regions: squares)
    #expect(monitor.state(ofRegionAt: 0) == .unknown)
    let update = monitor.process(fix(1.5, 1.5))
    // Established together: the inside ones are saved each, the rest by the moment (SavedRegionStates).
    var expected = RegionUpdate(establishedInside: [0, 1], established: [0, 1])
    expected.establishedTogether = true
    #expect(update == expected)
    #expect(monitor.inside == [0, 1])
    #expect(monitor.state(ofRegionAt: 0) == .inside(since: Timestamp(nanosecondsSince1970: 0)))
    #expect(monitor.state(ofRegionAt: 2) == .outside(since: Timestamp(nanosecondsSince1970: 0)))
    #expect(monitor.process(fix(1.5, 1.5, second: 1)) == RegionUpdate())
}

@Test("a region asking for an initial trigger is entered at the first fix inside")
func initialTrigger() {
    var regions = squares
    regions[1].options.initialTrigger = true
    var monitor = RegionMonitor(regions: regions)
    #expect(run(&monitor, [fix(1.5, 1.5)]) == ["enter alpha @0/0 initial"])
}

@Test("a crossing is confirmed after 20 s once 200 m beyond; exits first, then enters, by identifier")
func hysteresisAndOrder() {
    var monitor = RegionMonitor(regions: squares)
    _ = monitor.process(fix(-1, 0.5, second: 0))  // outside everything
    // Into zeta and mid at x = 0.0001° (≈ 11 m): not yet confirmed however long it stays there
    // before 60 s … then deep inside at 35 s: both confirmed at 35 s, stamped at 10 s.
    var fixes = (10...34).map { fix(0.0001, 0.5, second: $0) }
    fixes.append(fix(0.01, 0.5, second: 35))
    #expect(run(&monitor, fixes) == ["enter mid @10/35", "enter zeta @10/35"])
    // Straight into alpha and out of mid and zeta at once.
    #expect(run(&monitor, (100...130).map { fix(2.5, 2.5, second: $0) }) == [
        "exit mid @100/120", "exit zeta @100/120", "enter alpha @100/120",
    ])
    #expect(monitor.inside == [1])
}

@Test("coming back before confirmation cancels the crossing; the new one is stamped at its own first fix")
func cancelledCrossing() {
    var monitor = RegionMonitor(regions: [squares[0]])
    var fixes = [fix(-0.01, 1, second: 0)]
    fixes += (1...10).map { fix(0.01, 1, second: $0) }  // in for 10 s
    fixes += (11...15).map { fix(-0.01, 1, second: $0) }  // back out
    fixes += (16...40).map { fix(0.01, 1, second: $0) }  // in again, for good
    #expect(run(&monitor, fixes) == ["enter zeta @16/36"])
}

/// The promise behind it (docs/semantics.md §3.3): a crossing held 30 s that got beyond the
/// hysteresis distance is reported, even when the fix that went deep came before the hold time
/// and the later ones drifted back towards the edge.
@Test("depth reached early in the hold still confirms; the confirming fix must still be clear of the edge by its accuracy")
func depthReachedEarlyConfirms() {
    var monitor = RegionMonitor(regions: [squares[0]])
    var fixes = [fix(-0.001, 1, second: 0)]
    fixes.append(fix(0.001, 1, second: 1))  // ≈ 110 m in: not yet past the 200 m
    fixes += (2...6).map { fix(0.003, 1, second: $0) }  // ≈ 330 m in: past it, before 20 s
    fixes += (7...30).map { fix(0.0003, 1, second: $0) }  // drifted back to ≈ 33 m inside
    fixes += (31...40).map { fix(-0.001, 1, second: $0) }  // and out again before 60 s
    #expect(run(&monitor, fixes) == ["enter zeta @1/21"])

    // The same path with 50 m uncertainty while it is 33 m inside: no fix after the hold is
    // clear of the edge by its accuracy, so nothing is confirmed.
    var uncertain = RegionMonitor(regions: [squares[0]])
    let blurred = fixes.map { f -> Fix in
        var f = f
        if f.coordinate.longitude == 0.0003 { f.horizontalAccuracy = 50 }
        return f
    }
    #expect(run(&uncertain, blurred) == [])
}

@Test("after 60 s on the new side the distance is waived: a path just inside the boundary enters")
func settleWaivesDistance() {
    var monitor = RegionMonitor(regions: [squares[0]])
    var fixes = [fix(-0.001, 1, second: 0)]
    fixes += (1...70).map { fix(0.0002, 1, second: $0) }  // ≈ 22 m inside, under the 200 m
    #expect(run(&monitor, fixes) == ["enter zeta @1/61"])
}

/// A walk along a straight boundary with seeded Gaussian noise (σ = 8 m) flips raw membership
/// hundreds of times and must give no transition.
@Test("a noisy walk along a boundary does not flicker")
func noisyBoundaryWalk() {
    let park = Region(identifier: "park", shape: .polygons([Polygon(exterior: ring([(0, 0), (0.1, 0), (0.1, 0.1), (0, 0.1)]))]))
    var monitor = RegionMonitor(regions: [park])
    var rng = SplitMix64(seed: 7)
    var rawFlips = 0
    var wasInside: Bool?
    var transitions = 0
    for second in 0..<1800 {
        // Along the western edge (x = 0), northwards at 1 m/s, noise across it.
        let metresPerDegree = 111_320.0
        let noise = gaussian(&rng) * 8
        let f = fix(noise / metresPerDegree, 0.01 + Double(second) / 111_000, second: second)
        transitions += monitor.process(f).transitions.count
        let inside = !monitor.raw.isEmpty
        if let wasInside, wasInside != inside { rawFlips += 1 }
        wasInside = inside
    }
    #expect(rawFlips > 300)
    #expect(transitions == 0)
}

@Test("a fix whose uncertainty circle straddles the boundary does not confirm")
func accuracyStraddle() {
    let circle = Region(identifier: "c", shape: .circle(center: coordinate(10, 50), radius: 300))
    var monitor = RegionMonitor(regions: [circle])
    #expect(monitor.hysteresis(ofRegionAt: 0) == 60)
    let centre = coordinate(10, 50)
    func at(_ metresFromCentre: Double, _ second: Int, accuracy: Double?) -> Fix {
        var f = Fix(
            time: Timestamp(nanosecondsSince1970: Int64(second) * 1_000_000_000),
            coordinate: Geodesic.destination(from: centre, azimuth: 90, distance: metresFromCentre))
        f.horizontalAccuracy = accuracy
        return f
    }
    var fixes = [at(1000, 0, accuracy: 5)]
    // 200 m inside the edge, but ± 250 m: straddles, for five minutes.
    fixes += (1...300).map { at(100, $0, accuracy: 250) }
    #expect(run(&monitor, fixes) == [])
    // One fix of ± 150 m does not outweigh five minutes of ± 250 m at rest (the rest
    // estimate decides, docs/semantics.md §3.3); minutes of ± 150 m put it wholly inside.
    #expect(run(&monitor, [at(100, 301, accuracy: 150)]) == [])
    let entered = run(&monitor, (302...900).map { at(100, $0, accuracy: 150) })
    #expect(entered.count == 1 && entered[0].hasPrefix("enter c @1/"), "\(entered)")
}

@Test("dwell fires at the loitering delay after entering, not before, once per entry")
func dwell() {
    var region = squares[0]
    region.options.loiteringDelay = 120
    var monitor = RegionMonitor(regions: [region])
    var fixes = [fix(-0.01, 1, second: 0)]
    fixes += (10...129).map { fix(0.01, 1, second: $0) }  // entered at 10: dwell due at 130
    #expect(run(&monitor, fixes) == ["enter zeta @10/30"])
    #expect(run(&monitor, (130...300).map { fix(0.01, 1, second: $0) }) == ["dwell zeta @130/130"])
    // Out and in again: a new dwell.
    var again = (301...330).map { fix(-0.01, 1, second: $0) }
    again += (331...460).map { fix(0.01, 1, second: $0) }
    #expect(run(&monitor, again) == ["exit zeta @301/321", "enter zeta @331/351", "dwell zeta @451/451"])
}

@Test("notifyOnEntry false: the state changes but the entry is not notified")
func notifyFlags() {
    var region = squares[0]
    region.options.notifyOnEntry = false
    var monitor = RegionMonitor(regions: [region])
    _ = monitor.process(fix(-0.01, 1, second: 0))
    let transitions = (1...30).flatMap { monitor.process(fix(0.01, 1, second: $0)).transitions }
    #expect(transitions.map(\.kind) == [.enter])
    #expect(transitions.map(\.notifies) == [false])
    #expect(monitor.inside == [0])
}

@Test("sparse fixes across a small circle report it entered and exited, marked crossed")
func sparseCrossing() {
    let centre = coordinate(14.5, 46.05)
    let hut = Region(identifier: "hut", shape: .circle(center: centre, radius: 50))
    var monitor = RegionMonitor(regions: [hut])
    let west = Geodesic.destination(from: centre, azimuth: 270, distance: 500)
    let east = Geodesic.destination(from: centre, azimuth: 90, distance: 500)
    let updates = [
        Fix(time: Timestamp(nanosecondsSince1970: 0), coordinate: west),
        Fix(time: Timestamp(nanosecondsSince1970: 240_000_000_000), coordinate: east),
    ].map { monitor.process($0) }
    let crossed = updates[1].transitions
    #expect(crossed.map(\.kind) == [.enter, .exit])
    #expect(crossed.allSatisfy { $0.crossed && $0.confirmedAt == Timestamp(nanosecondsSince1970: 240_000_000_000) })
    // 450 m of 1000 in 4 min: 108 s; out at 550 m: 132 s.
    #expect(abs(crossed[0].fix.time!.secondsSince1970 - 108) < 1)
    #expect(abs(crossed[1].fix.time!.secondsSince1970 - 132) < 1)
    #expect(abs(Geodesic.distance(crossed[0].fix.coordinate, centre) - 50) < 0.5)
    #expect(monitor.state(ofRegionAt: 0) == .outside(since: Timestamp(nanosecondsSince1970: 0)))
}

/// Two fixes `seconds` apart, 500 m west and east of a 50 m circle: the crossings inferred.
private func crossings(after seconds: Double, metres: Double = 500, configuration: RegionMonitor.Configuration = .init()) -> [String] {
    let centre = coordinate(14.5, 46.05)
    var monitor = RegionMonitor(regions: [Region(identifier: "hut", shape: .circle(center: centre, radius: 50))], configuration: configuration)
    return [
        Fix(time: Timestamp(nanosecondsSince1970: 0), coordinate: Geodesic.destination(from: centre, azimuth: 270, distance: metres)),
        Fix(time: Timestamp(secondsSince1970: seconds), coordinate: Geodesic.destination(from: centre, azimuth: 90, distance: metres)),
    ].flatMap { monitor.process($0).transitions }.map { "\($0.kind.rawValue) \($0.identifier)" + ($0.crossed ? " crossed" : "") }
}

@Test("a silence longer than the crossing gap is a gap: nothing is inferred across it")
func noCrossingAcrossAGap() {
    #expect(crossings(after: 300) == ["enter hut crossed", "exit hut crossed"])
    #expect(crossings(after: 300.5) == [])
    #expect(crossings(after: 16 * 30 * 86_400) == [])
    var patient = RegionMonitor.Configuration()
    patient.maximumCrossingGap = 3600
    #expect(crossings(after: 1800, configuration: patient) == ["enter hut crossed", "exit hut crossed"])
}

@Test("a straight path faster than the speed bound infers nothing")
func noCrossingAtAnImpossibleSpeed() {
    // 2 km in 30 s is 67 m/s, beyond activity other's 60 m/s; in 40 s it is 50 m/s.
    #expect(crossings(after: 30, metres: 1000) == [])
    #expect(crossings(after: 40, metres: 1000) == ["enter hut crossed", "exit hut crossed"])
}

@Test("a sparse segment that only grazes a circle, or dense fixes passing one, report nothing")
func noCrossingWhenGrazingOrDense() {
    let centre = coordinate(14.5, 46.05)
    let hut = Region(identifier: "hut", shape: .circle(center: centre, radius: 50))  // hysteresis 10 m
    var grazing = RegionMonitor(regions: [hut])
    let north = Geodesic.destination(from: centre, azimuth: 0, distance: 45)  // the chord's middle is 5 m deep
    #expect(run(&grazing, [
        Fix(time: Timestamp(nanosecondsSince1970: 0), coordinate: Geodesic.destination(from: north, azimuth: 270, distance: 500)),
        Fix(time: Timestamp(nanosecondsSince1970: 240_000_000_000), coordinate: Geodesic.destination(from: north, azimuth: 90, distance: 500)),
    ]) == [])
    let tiny = Region(identifier: "tiny", shape: .circle(center: centre, radius: 5))
    var dense = RegionMonitor(regions: [tiny])
    let west = Geodesic.destination(from: centre, azimuth: 270, distance: 8)
    let east = Geodesic.destination(from: centre, azimuth: 90, distance: 8)
    #expect(run(&dense, [
        Fix(time: Timestamp(nanosecondsSince1970: 0), coordinate: west),
        Fix(time: Timestamp(nanosecondsSince1970: 1_000_000_000), coordinate: east),
    ]) == [])
}

@Test("a 5 m circle: standing at its centre for 20 s enters it")
func tinyCircleEntered() {
    let centre = coordinate(14.5, 46.05)
    var monitor = RegionMonitor(regions: [Region(identifier: "post", shape: .circle(center: centre, radius: 5))])
    #expect(monitor.hysteresis(ofRegionAt: 0) == 1)
    var fixes = [Fix(time: Timestamp(nanosecondsSince1970: 0), coordinate: Geodesic.destination(from: centre, azimuth: 0, distance: 30))]
    fixes += (1...21).map { Fix(time: Timestamp(nanosecondsSince1970: Int64($0) * 1_000_000_000), coordinate: centre) }
    #expect(run(&monitor, fixes) == ["enter post @1/21"])
}

@Test("walking into a hole exits the region")
func hole() {
    let courtyard = Region(identifier: "block", shape: .polygons([Polygon(
        exterior: ring([(0, 0), (0.1, 0), (0.1, 0.1), (0, 0.1)]), holes: [ring([(0.04, 0.04), (0.06, 0.04), (0.06, 0.06), (0.04, 0.06)])])]))
    var monitor = RegionMonitor(regions: [courtyard])
    _ = monitor.process(fix(0.02, 0.05, second: 0))
    #expect(monitor.inside == [0])
    #expect(run(&monitor, (1...30).map { fix(0.05, 0.05, second: $0) }) == ["exit block @1/21"])
}

@Test("across the antimeridian: the seam of a split region is no boundary; a circle on it works from both sides")
func antimeridian() {
    // A region over 179.5°E…179.5°W, split at 180 into two polygons as RFC 7946 asks.
    let strait = Region(identifier: "strait", shape: .polygons([
        Polygon(exterior: ring([(179.5, 65), (180, 65), (180, 66), (179.5, 66)])),
        Polygon(exterior: ring([(-180, 65), (-179.5, 65), (-179.5, 66), (-180, 66)])),
    ]))
    let buoy = Region(identifier: "buoy", shape: .circle(center: coordinate(180, 64), radius: 2000))
    var monitor = RegionMonitor(regions: [strait, buoy])
    var fixes = [fix(179.0, 65.5, second: 0)]
    // Eastwards at ~ 30 m/s over the seam: enter once, no exit at the seam.
    for s in 1...200 { fixes.append(fix(179.0 + Double(s) * 0.006 > 180 ? 179.0 + Double(s) * 0.006 - 360 : 179.0 + Double(s) * 0.006, 65.5, second: s)) }
    #expect(run(&monitor, fixes) == ["enter strait @84/104"])
    #expect(monitor.inside == [0])
    // The buoy from its western and eastern halves.
    var buoyMonitor = RegionMonitor(regions: [buoy])
    _ = buoyMonitor.process(fix(179.999, 64, second: 0))
    #expect(buoyMonitor.inside == [0])
    _ = buoyMonitor.process(fix(-179.999, 64, second: 1))
    #expect(buoyMonitor.raw == [0])
    // A sparse jump across the seam through the buoy is a crossing.
    var crossing = RegionMonitor(regions: [buoy])
    #expect(run(&crossing, [fix(179.9, 64, second: 0), fix(-179.9, 64, second: 240)]).map { $0.prefix(10) } == ["enter buoy", "exit buoy "])
}

@Test("a sparse step that ends exactly on ±180° goes the short way, not round the world")
func sparseStepOntoTheSeam() {
    // Regions on the far side of the globe from a 0.1° step over the seam.
    let greenwich = Region(identifier: "greenwich", shape: .circle(center: coordinate(0, 64), radius: 5000))
    let dateline = Region(identifier: "dateline", shape: .circle(center: coordinate(-90, 64), radius: 5000))
    for (from, to) in [(-179.9, 180.0), (179.9, -180.0), (180.0, -179.9), (-180.0, 179.9)] {
        var monitor = RegionMonitor(regions: [greenwich, dateline])
        #expect(run(&monitor, [fix(from, 64, second: 0), fix(to, 64.001, second: 240)]) == [], "\(from) → \(to)")
    }
}

@Test("near the pole: a circle around it holds points at every longitude")
func pole() {
    let cap = Region(identifier: "cap", shape: .circle(center: coordinate(0, 89.9), radius: 20_000))
    var monitor = RegionMonitor(regions: [cap])
    for (second, longitude) in [0.0, 90, 179.9, -120, -180].enumerated() {
        _ = monitor.process(fix(longitude, 89.95, second: second))
        #expect(monitor.raw == [0], "longitude \(longitude)")
    }
    _ = monitor.process(fix(0, 90, second: 10))
    #expect(monitor.raw == [0])
}

/// Standard normal deviate (Box–Muller) from the seeded generator.
func gaussian(_ rng: inout SplitMix64) -> Double {
    let u = max(Double(rng.next() >> 11) / Double(1 << 53), 1e-300)
    let v = Double(rng.next() >> 11) / Double(1 << 53)
    return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
}
