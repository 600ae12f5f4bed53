import Testing
import WaymarkBeacons
import WaymarkCore
import WaymarkPipeline
import WaymarkRegions

/// The device's place (docs/semantics.md §3.7): the highest-priority geographic region it is
/// confirmed inside, then the smallest, then the first identifier; a `place` event when it changes.
@Suite struct DevicePipelinePlaceTests {
    static let centre = Coordinate(latitude: 47.37, longitude: 8.54)
    static let start = Timestamp(nanosecondsSince1970: 1_700_000_000_000_000_000)

    /// A circle of `radius` metres whose centre is `east` metres east of `centre`.
    static func circle(_ identifier: String, radius: Double, east: Double = 0, priority: Int? = nil) -> Region {
        Region(
            identifier: identifier, shape: .circle(center: point(east), radius: radius), options: RegionOptions(priority: priority))
    }

    static func point(_ east: Double) -> Coordinate {
        east == 0 ? centre : Geodesic.destination(from: centre, azimuth: east > 0 ? 90 : 270, distance: abs(east))
    }

    /// A walk along the east–west line through `centre`: from the first stop, to each next one
    /// at 5 m/s, resting `rest` seconds at every stop; a fix every 2 s, 5 m accurate.
    static func walk(_ stops: [Double], rest: Double = 180) -> [Fix] {
        var fixes: [Fix] = []
        var time = 0.0
        func fix(at east: Double) {
            fixes.append(Fix(time: start.adding(seconds: time), coordinate: point(east), horizontalAccuracy: 5, mode: .threeD))
            time += 2
        }
        var position = stops[0]
        for stop in stops {
            while abs(stop - position) > 10 {
                position += stop > position ? 10 : -10
                fix(at: position)
            }
            position = stop
            for _ in 0..<Int(rest / 2) { fix(at: position) }
        }
        return fixes
    }

    /// The place changes, as "previous→place" ("-" for none).
    static func changes(_ events: [LocationEvent]) -> [String] {
        events.compactMap { event in
            guard case .place(_, let place, let previous, _) = event else { return nil }
            return "\(previous ?? "-")→\(place ?? "-")"
        }
    }

    static let nested = [circle("city", radius: 2000), circle("neighbourhood", radius: 500), circle("home", radius: 50)]

    @Test func nestedRegionsGiveTheInnermostAsThePlace() {
        var pipeline = DevicePipeline(regions: Self.nested)
        let events = run(&pipeline, Self.walk([3000, 0, 3000]).map { .fix($0) })
        #expect(
            Self.changes(events) == [
                "-→city", "city→neighbourhood", "neighbourhood→home", "home→neighbourhood", "neighbourhood→city", "city→-",
            ])
        // Each region keeps its own enter and exit; a place event follows the transition that moved it.
        let regionEvents = events.compactMap { event -> String? in
            guard case .region(let transition) = event else { return nil }
            return "\(transition.kind.rawValue) \(transition.identifier)"
        }
        #expect(regionEvents == ["enter city", "enter neighbourhood", "enter home", "exit home", "exit neighbourhood", "exit city"])
        for (index, event) in events.enumerated() {
            guard case .place(let fix, _, _, let confirmedAt) = event else { continue }
            guard case .region(let transition) = events[index - 1] else { Issue.record("no transition before \(event)"); continue }
            #expect(transition.fix == fix && transition.confirmedAt == confirmedAt && confirmedAt != nil)
        }
        #expect(pipeline.place == nil)
    }

    /// The first fix reports the place it establishes, and only if there is one.
    @Test func theEstablishingFixReportsAPlaceOnlyIfThereIsOne() {
        var inside = DevicePipeline(regions: Self.nested)
        let first = inside.handle(.fix(Self.walk([0], rest: 2)[0])).events
        #expect(first.map(\.kind) == [.state, .place])
        #expect(Self.changes(first) == ["-→home"])
        #expect(first.last?.record.contains(#""kind":"place","place":"home","previous":null,"time":"#) == true)

        var outside = DevicePipeline(regions: Self.nested)
        #expect(outside.handle(.fix(Self.walk([3000], rest: 2)[0])).events.map(\.kind) == [.state])
        #expect(outside.place == nil)
    }

    /// Two neighbours' gardens overlap: the explicit priority wins over size; without one, the
    /// smaller wins; same size, the first identifier.
    @Test func overlapsAreRankedByPriorityThenSizeThenIdentifier() {
        func place(_ regions: [Region]) -> String? {
            var pipeline = DevicePipeline(regions: regions)
            _ = run(&pipeline, Self.walk([0], rest: 10).map { .fix($0) })
            return pipeline.place
        }
        let anna = Self.circle("anna", radius: 30, east: -20)
        let bert = Self.circle("bert", radius: 25, east: 20)
        #expect(place([anna, bert]) == "bert")  // smaller
        #expect(place([Self.circle("anna", radius: 30, east: -20, priority: 1), bert]) == "anna")  // priority
        #expect(place([Self.circle("anna", radius: 25, east: -20), bert]) == "anna")  // tie: identifier
        #expect(place([Self.circle("bert", radius: 25, east: -20), Self.circle("anna", radius: 25, east: 20)]) == "anna")
        #expect(place([Self.circle("city", radius: 2000, priority: 5), Self.circle("home", radius: 50)]) == "city")
        #expect(place([Self.circle("city", radius: 2000), Self.circle("home", radius: 50, priority: -1)]) == "city")
    }

    /// Leaving the higher-ranked of two overlapping regions hands the place to the other.
    @Test func leavingOneOfTwoOverlappingRegionsHandsThePlaceOver() {
        var pipeline = DevicePipeline(regions: [Self.circle("anna", radius: 30, east: -20, priority: 1), Self.circle("bert", radius: 30, east: 20)])
        let events = run(&pipeline, Self.walk([0, 40, 0, -40]).map { .fix($0) })
        #expect(Self.changes(events) == ["-→anna", "anna→bert", "bert→anna"])
        #expect(pipeline.place == "anna")
    }

    /// A restart derives the place from the saved states, with no event; the next change is
    /// reported from it.
    @Test func aRestoredPipelineHasItsPlaceWithoutAnEvent() {
        let walk = Self.walk([3000, 0, 3000])
        let split = walk.firstIndex { $0.coordinate == Self.centre }! + 60
        var first = DevicePipeline(regions: Self.nested)
        var saved: [String: SavedRegionState] = [:]
        var established: EstablishedRegions?
        var before: [LocationEvent] = []
        for fix in walk[..<split] {
            let step = first.handle(.fix(fix))
            before += step.events
            for state in step.states { saved[state.identifier] = state }
            if let together = step.regionsEstablished { established = together }
        }
        #expect(first.place == "home")
        #expect(Self.changes(before).last == "neighbourhood→home")

        var second = DevicePipeline(regions: Self.nested, savedStates: SavedRegionStates(Array(saved.values), established: established))
        #expect(second.place == "home")
        let after = run(&second, walk[split...].map { .fix($0) })
        #expect(Self.changes(after) == ["home→neighbourhood", "neighbourhood→city", "city→-"])
    }

    /// Crossings inferred between sparse fixes leave the state, and so the place, as it was.
    @Test func inferredCrossingsDoNotChangeThePlace() {
        var pipeline = DevicePipeline(regions: [Self.circle("city", radius: 5000), Self.circle("park", radius: 300)])
        let fixes = [-1500.0, -600, 600, 1500].enumerated().map { index, east in
            Fix(time: Self.start.adding(seconds: 40 * Double(index)), coordinate: Self.point(east), horizontalAccuracy: 5, mode: .threeD)
        }
        let events = run(&pipeline, fixes.map { .fix($0) })
        let crossed = events.compactMap { event -> String? in
            guard case .region(let transition) = event, transition.crossed else { return nil }
            return "\(transition.kind.rawValue) \(transition.identifier)"
        }
        #expect(crossed == ["enter park", "exit park"])
        #expect(Self.changes(events) == ["-→city"])
        #expect(pipeline.place == "city")
    }

    /// New regions: the place is derived afresh at the next fix, reported when it changed.
    @Test func replacedRegionsMoveThePlaceAtTheNextFix() {
        var pipeline = DevicePipeline(regions: Self.nested)
        _ = run(&pipeline, Self.walk([0], rest: 10).map { .fix($0) })
        #expect(pipeline.place == "home")
        let monitors = RegionMonitors(Array(Self.nested.prefix(2)))
        pipeline.replaceRegions(regionMonitor: monitors.geographic, beaconMonitor: monitors.beacons, places: monitors.places, saved: [])
        let next = Fix(time: Self.start.adding(seconds: 100), coordinate: Self.centre, horizontalAccuracy: 5, mode: .threeD)
        #expect(Self.changes(pipeline.handle(.fix(next)).events) == ["home→neighbourhood"])
        let later = Fix(time: Self.start.adding(seconds: 102), coordinate: Self.centre, horizontalAccuracy: 5, mode: .threeD)
        #expect(pipeline.handle(.fix(later)).events.isEmpty)
    }
}
