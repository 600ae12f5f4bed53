import Testing
import WaymarkCore
import WaymarkRegions

/// How region states are established and restored without a saved state per region
/// (`SavedRegionStates`): one moment for regions established together, a state for each of a
/// few established later and for every crossing.
@Suite struct RegionEstablishmentTests {
    /// `count` circles of 100 m along the equator, 0.01° apart, named c0, c1, …
    static func circles(_ count: Int, from first: Int = 0) -> [Region] {
        (first..<(first + count)).map { index in
            Region(identifier: "c\(index)", shape: .circle(center: Coordinate(latitude: 0, longitude: Double(index) * 0.01), radius: 100))
        }
    }

    static func at(_ longitude: Double, second: Int) -> Fix {
        Fix(time: Timestamp(secondsSince1970: Double(second)), coordinate: Coordinate(latitude: 0, longitude: longitude))
    }

    @Test func aMonitorCopiedFromATemplateHoldsNoStateForRegionsFarAway() {
        var footprints: [Int] = []
        for count in [100, 10_000] {
            let template = RegionMonitor(regions: Self.circles(count))
            var device = template
            let update = device.process(Self.at(0, second: 10))
            #expect(update.establishedTogether)
            #expect(update.established == [0])
            #expect(device.state(ofRegionAt: 0) == .inside(since: Timestamp(secondsSince1970: 10)))
            #expect(device.state(ofRegionAt: count - 1) == .outside(since: Timestamp(secondsSince1970: 10)))
            #expect(template.state(ofRegionAt: 0) == .unknown, "copies do not share state")
            footprints.append(device.stateFootprint)
        }
        // A device's own state does not grow with the regions there are.
        #expect(footprints[0] == footprints[1], "\(footprints)")
    }

    @Test func theEstablishedMomentRestoresEveryCoveredRegionAsOutside() {
        var first = RegionMonitor(regions: Self.circles(100))
        let update = first.process(Self.at(0.5, second: 10))  // inside c50
        let saved = SavedRegionStates(
            update.established!.compactMap { first.savedState(ofRegionAt: Int($0)) },
            established: EstablishedRegions(since: Timestamp(secondsSince1970: 10), excluding: ["c7"]))
        var restarted = RegionMonitor(regions: Self.circles(100))
        restarted.restore(saved)
        #expect(restarted.state(ofRegionAt: 50) == .inside(since: Timestamp(secondsSince1970: 10)))
        #expect(restarted.state(ofRegionAt: 3) == .outside(since: Timestamp(secondsSince1970: 10)))
        #expect(restarted.state(ofRegionAt: 7) == .unknown, "imported after the moment: not covered")
        // Left while away: the restored inside state gives the exit; c3, known outside, gives an enter.
        let exits = (0..<30).flatMap { restarted.process(Self.at(0.03, second: 100 + $0)).transitions }
        #expect(exits.map { "\($0.kind.rawValue) \($0.identifier)" } == ["exit c50", "enter c3"])
    }

    @Test func aFewRegionsAddedLaterAreEstablishedOneByOneAndManyTogether() {
        var device = RegionMonitor(regions: Self.circles(10))
        _ = device.process(Self.at(0.5, second: 10))
        // A few regions added (a new monitor restored from the device's saved moment): each gets its own state.
        var few = RegionMonitor(regions: Self.circles(10) + Self.circles(3, from: 100))
        few.restore(SavedRegionStates([], established: EstablishedRegions(since: Timestamp(secondsSince1970: 10), excluding: ["c100", "c101", "c102"])))
        let fewUpdate = few.process(Self.at(0.5, second: 20))
        #expect(!fewUpdate.establishedTogether)
        #expect(fewUpdate.established == [10, 11, 12])
        #expect(few.state(ofRegionAt: 11) == .outside(since: Timestamp(secondsSince1970: 20)))
        #expect(few.state(ofRegionAt: 2) == .outside(since: Timestamp(secondsSince1970: 10)))
        // Many: established together again, so the moment moves to this fix.
        let added = Self.circles(RegionMonitor.individualEstablishLimit + 1, from: 100)
        var many = RegionMonitor(regions: Self.circles(10) + added)
        many.restore(SavedRegionStates([], established: EstablishedRegions(since: Timestamp(secondsSince1970: 10), excluding: Set(added.map(\.identifier)))))
        let manyUpdate = many.process(Self.at(0.5, second: 20))
        #expect(manyUpdate.establishedTogether)
        #expect(many.state(ofRegionAt: 2) == .outside(since: Timestamp(secondsSince1970: 20)))
    }
}
