import Logging
import Testing
import WaymarkBeacons
import WaymarkCore
import WaymarkDaemon
import WaymarkPipeline
import WaymarkRegions
import WaymarkStore

/// `waymark explain` over a real store (docs/explain.md): events recorded from a real pipeline
/// run, explained by recomputing them from the stored fixes.
@Suite struct EventExplainTests {
    static let centre = Coordinate(latitude: 52.0, longitude: 4.0)
    static let start = Timestamp(secondsSince1970: 1_780_000_000)
    let store = try! WaymarkStore.temporary(logger: Logger(label: "explain", factory: { _ in SwiftLogNoOpLogHandler() }))

    /// Runs `fixes` through a pipeline as the daemon does and records the fixes and the region
    /// events; returns the events' ids in order.
    @discardableResult
    func record(_ fixes: [Fix], regions: [Region], storeFixes: (Fix) -> Bool = { _ in true }) throws -> [(id: Int64, transition: RegionTransition)] {
        try store.importRegions(regions, replace: true)
        var pipeline = DevicePipeline(regions: regions)
        var events: [(Int64, RegionTransition)] = []
        for fix in fixes {
            if storeFixes(fix) { try store.recordFix(fix, source: "test") }
            for case .region(let transition) in pipeline.handle(.fix(fix)).events {
                let event = LocationEvent.region(transition)
                let id = try store.recordEvent(
                    StoredEvent(
                        time: transition.fix.time!, kind: .region, region: transition.identifier, transition: transition.kind,
                        coordinate: transition.fix.coordinate, record: event.record))
                events.append((id, transition))
            }
        }
        return events
    }

    /// A walk east along the latitude of the centre, at `speed` m/s, one fix every `interval` s.
    static func walk(from west: Double, to east: Double, speed: Double, interval: Double, accuracy: Double? = 5) -> [Fix] {
        var fixes: [Fix] = []
        var offset = west
        var time = start
        while offset <= east {
            let coordinate = Geodesic.destination(from: centre, azimuth: offset < 0 ? 270 : 90, distance: abs(offset))
            fixes.append(Fix(time: time, coordinate: coordinate, horizontalAccuracy: accuracy))
            offset += speed * interval
            time = time.adding(seconds: interval)
        }
        return fixes
    }

    static func circle(_ identifier: String, radius: Double) -> Region {
        Region(identifier: identifier, shape: .circle(center: centre, radius: radius))
    }

    @Test func anEntryAfterACleanWalkInIsReproducedWithItsRuleAndFixes() throws {
        // 400 m west to the centre at 1.4 m/s, then standing there for two minutes.
        var fixes = Self.walk(from: -400, to: 0, speed: 1.4, interval: 1)
        let last = fixes.last!
        for second in 1...120 {
            fixes.append(Fix(time: last.time!.adding(seconds: Double(second)), coordinate: Self.centre, horizontalAccuracy: 5))
        }
        let events = try record(fixes, regions: [Self.circle("home", radius: 100)])
        let enter = try #require(events.first { $0.transition.kind == .enter })

        let explanation = try #require(try store.explainEvent(id: enter.id, settings: .standard))
        #expect(explanation.reproduced == true, "\(explanation.mismatch ?? "")")
        #expect(explanation.mismatch == nil)
        #expect(explanation.startState == "outside")
        #expect(explanation.transition?.rule == enter.transition.rule)
        #expect(explanation.transition?.confirmedAt == enter.transition.confirmedAt)
        #expect(explanation.margin == 20)
        #expect(explanation.delay == 20)
        #expect(explanation.path == nil)
        // The listed fixes: the last ones outside before the stamped time, then inside.
        #expect(explanation.before.count == EventExplanation.listedBefore)
        #expect(explanation.before.last.map { !$0.inside && $0.edgeDistance > 0 } == true)
        #expect((explanation.before + explanation.after).allSatisfy { $0.inside == ($0.edgeDistance < 0) })
        let first = try #require(explanation.after.first)
        #expect(first.fix.time == enter.transition.fix.time)
        #expect(first.inside && first.edgeDistance < 0)
        #expect(first.fix.horizontalAccuracy == 5)
        #expect(explanation.after.contains { $0.fix.time == enter.transition.confirmedAt })
        let json = explanation.json
        #expect(json.contains("\"reproduced\":true"))
        #expect(json.contains("\"rule\":\"\(enter.transition.rule.rawValue)\""))
        #expect(json.contains("\"event\":{\"id\":\(enter.id),\"device\":\"local\",\"kind\":\"region\""))
        #expect(explanation.text.contains("reproduced: yes"))
        #expect(explanation.text.contains("<- confirmed"))
    }

    @Test func anExitMinutesAfterTheEntryIsRecomputedFromBeforeTheEntry() throws {
        // In, two minutes at the centre, out: the window (10 minutes before the exit) starts
        // before the entry, so the region starts outside and the recomputation makes both.
        var fixes = Self.walk(from: -400, to: 0, speed: 1.4, interval: 1)
        let stop = fixes.last!.time!
        for second in 1...120 { fixes.append(Fix(time: stop.adding(seconds: Double(second)), coordinate: Self.centre, horizontalAccuracy: 5)) }
        for fix in Self.walk(from: 0, to: 400, speed: 1.4, interval: 1).dropFirst() {
            fixes.append(Fix(time: fix.time!.adding(seconds: stop.seconds(since: Self.start) + 120), coordinate: fix.coordinate, horizontalAccuracy: 5))
        }
        let events = try record(fixes, regions: [Self.circle("home", radius: 100)])
        #expect(events.map(\.transition.kind) == [.enter, .exit])
        let exit = try #require(events.last)
        let explanation = try #require(try store.explainEvent(id: exit.id, settings: .standard))
        #expect(explanation.reproduced == true, "\(explanation.mismatch ?? "")")
        #expect(explanation.startState == "outside")
        #expect(explanation.recomputed.map(\.kind) == [.enter, .exit])
        // Where the engine stamps the exit is its business; the readings only measure.
        #expect(explanation.before.count == EventExplanation.listedBefore)
        #expect((explanation.before + explanation.after).allSatisfy { $0.inside == ($0.edgeDistance < 0) })
        #expect(explanation.after.first.map { $0.fix.time == exit.transition.fix.time && !$0.inside && $0.edgeDistance > 0 } == true)
        let window = try #require(explanation.window)
        #expect(window.from == exit.transition.fix.time!.adding(seconds: -600))
        #expect(window.to == exit.transition.confirmedAt!.adding(seconds: 30))
        #expect(explanation.fixes == fixes.filter { $0.time! >= window.from && $0.time! < window.to }.count)
    }

    @Test func fixesAreFedInTheOrderTheyWereRecorded() throws {
        // While the entry is pending, a late fix stamped then but 20 m outside arrives after
        // the confirmation: the gate dropped it (time went backwards). Fed in time order instead
        // it would have been admitted and cancelled the pending entry.
        var fixes = Self.walk(from: -400, to: 0, speed: 1.4, interval: 1)
        let late = Fix(
            time: fixes[220].time!.adding(seconds: 0.5), coordinate: Geodesic.destination(from: Self.centre, azimuth: 270, distance: 120),
            horizontalAccuracy: 5)
        fixes.insert(late, at: 250)
        let events = try record(fixes, regions: [Self.circle("home", radius: 100)])
        let enter = try #require(events.first { $0.transition.kind == .enter })
        #expect(enter.transition.fix.time! < late.time!)
        let explanation = try #require(try store.explainEvent(id: enter.id, settings: .standard))
        #expect(explanation.reproduced == true, "\(explanation.mismatch ?? "")")
        #expect(explanation.after.contains { $0.fix == late && $0.dropped == "timeBackwards" && !$0.inside })
    }

    /// A dwell 90 s after the entry (the entry in the window) and 15 minutes after it (the
    /// region restored inside from the stored entry's time, waiting for its dwell).
    @Test(arguments: [90.0, 900.0]) func aDwellIsRecomputedWithItsLoiteringDelay(delay: Double) throws {
        var fixes = Self.walk(from: -400, to: 0, speed: 1.4, interval: 1)
        let stop = fixes.last!.time!
        for second in 1...Int(delay + 150) {
            fixes.append(Fix(time: stop.adding(seconds: Double(second)), coordinate: Self.centre, horizontalAccuracy: 5))
        }
        let home = Region(
            identifier: "home", shape: .circle(center: Self.centre, radius: 100),
            propertiesJSON: "{\"loiteringDelay\":\(Int(delay))}", options: RegionOptions(loiteringDelay: delay))
        let events = try record(fixes, regions: [home])
        #expect(events.map(\.transition.kind) == [.enter, .dwell])
        let dwell = try #require(events.last)
        let explanation = try #require(try store.explainEvent(id: dwell.id, settings: .standard))
        #expect(explanation.reproduced == true, "\(explanation.mismatch ?? "")")
        #expect(explanation.transition?.rule == .dwell)
        #expect(explanation.delay == delay)
        #expect(explanation.startState == (delay < 600 ? "outside" : "inside"))
    }

    @Test func anInferredCrossingShowsTheStraightPath() throws {
        // Two fixes a minute apart, 300 m either side of a 50 m circle: neither inside.
        let fixes = [
            Fix(time: Self.start, coordinate: Geodesic.destination(from: Self.centre, azimuth: 270, distance: 300), horizontalAccuracy: 5),
            Fix(time: Self.start.adding(seconds: 60), coordinate: Geodesic.destination(from: Self.centre, azimuth: 90, distance: 300), horizontalAccuracy: 5),
        ]
        let events = try record(fixes, regions: [Self.circle("kiosk", radius: 50)])
        #expect(events.map(\.transition.kind) == [.enter, .exit])
        let exit = try #require(events.last)
        #expect(exit.transition.crossed)

        let explanation = try #require(try store.explainEvent(id: exit.id, settings: .standard))
        #expect(explanation.reproduced == true, "\(explanation.mismatch ?? "")")
        #expect(explanation.startState == "outside")
        #expect(explanation.transition?.rule == .crossed)
        let path = try #require(explanation.path)
        #expect(path.from.fix == fixes[0])
        #expect(path.to.fix == fixes[1])
        #expect(path.points.map(\.kind) == [.enter, .exit])
        #expect(path.points.last?.fix.time == exit.transition.fix.time)
        #expect(explanation.json.contains("\"path\":{\"from\":{"))
        #expect(explanation.text.contains("path: straight from"))
    }

    @Test func aCrossingGapFromTheConfigurationIsTheOneApplied() throws {
        // The same crossing, its fixes 200 s apart: inferred with the default gap (300 s), not
        // with a gap of 90 s, which the explanation must then say it cannot reproduce.
        let fixes = [
            Fix(time: Self.start, coordinate: Geodesic.destination(from: Self.centre, azimuth: 270, distance: 300)),
            Fix(time: Self.start.adding(seconds: 200), coordinate: Geodesic.destination(from: Self.centre, azimuth: 90, distance: 300)),
        ]
        let enter = try #require(try record(fixes, regions: [Self.circle("kiosk", radius: 50)]).first)
        #expect(try store.explainEvent(id: enter.id, settings: .standard)?.reproduced == true)
        var short = PipelineSettings.standard
        short.crossingGap = 90
        let explanation = try #require(try store.explainEvent(id: enter.id, settings: short))
        #expect(explanation.reproduced == false)
        #expect(explanation.transition == nil)
        #expect(explanation.mismatch?.contains("made no enter of \"kiosk\"") == true)
    }

    @Test func anEventTheStoredFixesDoNotReproduceIsSaidSo() throws {
        // The fixes inside were never stored (lost, say): the recomputation sees no entry.
        var fixes = Self.walk(from: -400, to: 0, speed: 1.4, interval: 1)
        let last = fixes.last!
        for second in 1...60 { fixes.append(Fix(time: last.time!.adding(seconds: Double(second)), coordinate: Self.centre)) }
        let home = Self.circle("home", radius: 100)
        let events = try record(fixes, regions: [home]) { fix in
            Geodesic.distance(fix.coordinate, Self.centre) > 100
        }
        let enter = try #require(events.first)
        let explanation = try #require(try store.explainEvent(id: enter.id, settings: .standard))
        #expect(explanation.reproduced == false)
        #expect(explanation.transition == nil)
        #expect(explanation.mismatch?.contains("made no enter of \"home\"") == true)
        #expect(explanation.after.isEmpty)
        #expect(explanation.json.contains("\"reproduced\":false,\"mismatch\":\"the recomputation from"))
        #expect(explanation.text.contains("reproduced: NO"))
    }

    @Test func aBeaconExitIsExplainedFromItsRecordAndSaysWhatIsNotStored() throws {
        let uuid = try #require(BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"))
        let region = Region(
            identifier: "desk", shape: .beacon(BeaconIdentity(uuid: uuid)), propertiesJSON: "{\"exitTimeout\":45}",
            options: RegionOptions(exitTimeout: 45))
        try store.importRegions([region], replace: true)
        let lastSeen = Self.start
        let transition = BeaconTransition(kind: .exit, regionIndex: 0, identifier: "desk", time: lastSeen.adding(seconds: 45), lastSeen: lastSeen)
        let id = try store.recordEvent(
            StoredEvent(time: transition.time, kind: .beacon, region: "desk", transition: .exit, record: LocationEvent.beacon(transition).record))

        let explanation = try #require(try store.explainEvent(id: id, settings: .standard))
        #expect(explanation.reproduced == nil)
        #expect(explanation.exitTimeout == 45)
        #expect(explanation.event.lastSeen == lastSeen)
        #expect(explanation.notes.contains { $0.contains("advertisements are not stored") })
        #expect(explanation.notes.contains { $0.hasPrefix("exited 45 s (the exit timeout) after the last matching advertisement") })
        #expect(explanation.json.contains("\"reproduced\":null"))
        #expect(explanation.json.contains("\"exitTimeout\":45"))
    }

    @Test func theAPIsEventsCarryTheIdToExplain() throws {
        let id = try store.recordEvent(
            StoredEvent(time: Self.start, kind: .region, region: "home", transition: .enter, record: #"{"kind":"region"}"#))
        var lines: [String] = []
        try store.history(HistoryQuery(kinds: [.event])) { item in
            if case .event(let event) = item { lines.append(event.jsonLineWithID) }
        }
        #expect(lines == [#"{"kind":"region","device":"local","id":\#(id)}"#])
        #expect(StoredEvent(time: Self.start, kind: .region, record: "{}").jsonLineWithID == #"{"device":"local"}"#)
    }

    @Test func anUnknownIdIsNilAndAFixRecordIsNotExplainable() throws {
        #expect(try store.explainEvent(id: 4_711, settings: .standard) == nil)
        let id = try store.recordEvent(
            StoredEvent(time: Self.start, kind: .location, record: "{\"kind\":\"location\",\"time\":\"2026-05-28T20:26:40Z\"}"))
        #expect {
            try store.explainEvent(id: id, settings: .standard)
        } throws: { error in
            (error as? ExplainError)?.code == .notExplainable && "\(error)".contains("event \(id) is a location record")
        }
    }
}
