import Testing
import WaymarkCore
import WaymarkPipeline
import WaymarkRegions
import WaymarkServices

/// docs/semantics.md §2.5: a restart at any moment — the fixes so far stored with the marks and
/// region states their steps saved, a new pipeline built from them — gives the records and
/// transitions one uninterrupted run gives, except what the section says is lost.
@Suite struct ServiceResumeTests {
    static let subscriber = Subscriber(
        id: .handler("h"),
        services: ServiceSubscription(significantChange: SignificantChangeThresholds(), visits: VisitThresholds(), activity: .fitness))

    /// What the store holds after the first `count` fixes went through `pipeline`.
    struct Stored {
        var fixes: [Fix] = []
        var marks: [SubscriberID: [ServiceMark]] = [:]
        var states: [String: SavedRegionState] = [:]
        var established: EstablishedRegions?

        /// As `WaymarkStore.savedServiceMarks(device:)` gives it back.
        var savedMarks: SavedServiceMarks {
            var saved = SavedServiceMarks(marks: marks)
            if let from = saved.replayFrom {
                saved.fixes = fixes.filter { $0.time! >= from }
            } else if !marks.isEmpty, let last = fixes.last {
                saved.fixes = [last]
            }
            return saved
        }

        var savedStates: SavedRegionStates {
            SavedRegionStates(states.values.sorted { $0.identifier < $1.identifier }, established: established)
        }
    }

    /// Runs `fixes` and keeps what a daemon would have stored; every event in order.
    static func run(_ pipeline: inout DevicePipeline, _ fixes: ArraySlice<Fix>, into stored: inout Stored) -> [LocationEvent] {
        var events: [LocationEvent] = []
        for fix in fixes {
            let step = pipeline.handle(.fix(fix))
            events += step.events
            stored.fixes.append(fix)
            for (id, marks) in step.marks { stored.marks[id] = marks }
            for state in step.states { stored.states[state.identifier] = state }
            if let established = step.regionsEstablished { stored.established = established }
        }
        return events
    }

    static func serviceRecords(_ events: [LocationEvent]) -> [String] {
        events.compactMap { event in
            guard case .service(let record, _) = event else { return nil }
            return record.json
        }
    }

    @Test func aRestartAnywhereInTheRideGivesTheUninterruptedSignificantChangesAndVisits() throws {
        let fixes = try lakesideRide().fixes
        var whole = DevicePipeline(regions: [], subscribers: [Self.subscriber])
        var ignored = Stored()
        let expected = Self.serviceRecords(Self.run(&whole, fixes[...], into: &ignored))
        #expect(expected.filter { $0.contains("\"arrival\"") }.count == 1, "the ride has one visit")

        var restartsInsideTheVisit = 0
        for cut in stride(from: 1, to: fixes.count, by: 37) {
            var stored = Stored()
            var before = DevicePipeline(regions: [], subscribers: [Self.subscriber])
            let first = Self.run(&before, fixes[..<cut], into: &stored)
            let stay = stored.marks[Self.subscriber.id]?[.stay]
            if let stay, stay.time.rfc3339 == "2026-06-01T08:20:24Z", cut < 1802 { restartsInsideTheVisit += 1 }
            var after = DevicePipeline(regions: [], savedMarks: stored.savedMarks, subscribers: [Self.subscriber])
            let second = Self.run(&after, fixes[cut...], into: &stored)
            let records = Self.serviceRecords(first + second)
            #expect(records == expected, "restart after fix \(cut)")
            if records != expected { break }
        }
        #expect(restartsInsideTheVisit >= 10)
    }

    /// Without the marks (before §2.5) a restart inside the visit loses its departure, and any
    /// restart repeats a significant change: what the test above would catch.
    @Test func withoutTheMarksARestartInsideTheVisitLosesItsDeparture() throws {
        let fixes = try lakesideRide().fixes
        let arrival = try #require(fixes.firstIndex { $0.time?.rfc3339 == "2026-06-01T08:27:00Z" })
        var before = DevicePipeline(regions: [], subscribers: [Self.subscriber])
        var stored = Stored()
        let first = Self.serviceRecords(Self.run(&before, fixes[..<arrival], into: &stored))
        var forgetful = DevicePipeline(regions: [], subscribers: [Self.subscriber])
        let second = Self.serviceRecords(Self.run(&forgetful, fixes[arrival...], into: &stored))
        #expect(first.contains { $0.contains("\"arrival\"") })
        #expect(!second.contains { $0.contains("\"departure\"") })
        #expect(second.first?.contains("significantChange") == true)
    }

    /// A subscriber that is new after the restart (or one added after the first fix) starts
    /// afresh even when marks were saved under its name.
    @Test func marksApplyOnlyToSubscribersPresentBeforeTheFirstInput() throws {
        let fixes = try lakesideRide().fixes
        var stored = Stored()
        var before = DevicePipeline(regions: [], subscribers: [Self.subscriber])
        _ = Self.run(&before, fixes[..<600], into: &stored)
        var after = DevicePipeline(regions: [], savedMarks: stored.savedMarks)
        _ = after.handle(.fix(fixes[600]))
        after.replaceSubscribers([Self.subscriber])
        let records = Self.serviceRecords(after.handle(.fix(fixes[601])).events)
        #expect(records.count == 1 && records[0].contains("significantChange"), "a fresh subscriber's first fix is significant")
    }

    /// Documented loss (§2.5): a crossing pending at the restart starts its confirmation again
    /// from the first fix after it. It is still reported once, stamped with that fix.
    @Test func aPendingCrossingIsConfirmedAgainFromTheFirstFixAfterTheRestart() throws {
        let ride = try lakesideRide()
        var whole = DevicePipeline(regions: ride.regions)
        var ignored = Stored()
        let transitions = Self.run(&whole, ride.fixes[...], into: &ignored).compactMap { event -> RegionTransition? in
            guard case .region(let transition) = event, !transition.crossed, transition.kind != .dwell else { return nil }
            return transition
        }
        let pending = try #require(transitions.first { transition in
            guard let confirmed = transition.confirmedAt, let time = transition.fix.time else { return false }
            return confirmed.seconds(since: time) >= 5
        })
        let time = try #require(pending.fix.time)
        // Restart two fixes after the crossing began.
        let cut = try #require(ride.fixes.firstIndex { $0.time == time }) + 2
        var stored = Stored()
        var before = DevicePipeline(regions: ride.regions)
        let first = Self.run(&before, ride.fixes[..<cut], into: &stored)
        var after = DevicePipeline(regions: ride.regions, savedStates: stored.savedStates)
        let second = Self.run(&after, ride.fixes[cut...], into: &stored)
        let reported = (first + second).compactMap { event -> RegionTransition? in
            guard case .region(let transition) = event, transition.identifier == pending.identifier, transition.kind == pending.kind
            else { return nil }
            return transition
        }
        let same = transitions.filter { $0.identifier == pending.identifier && $0.kind == pending.kind }
        #expect(reported.count == same.count, "reported once, as before")
        let again = try #require(reported.first { ($0.fix.time ?? time) >= time && ($0.fix.time ?? time) <= pending.confirmedAt! + 60 })
        #expect(again.fix.time == ride.fixes[cut].time, "stamped with the first fix after the restart")
        #expect(again.confirmedAt! >= pending.confirmedAt!)
    }

    /// Documented loss (§2.5): a deferred batch held at a crash is not delivered after the
    /// restart; the next batch holds only fixes that came after it.
    @Test func aHeldDeferredBatchIsLostAtARestart() throws {
        let fixes = try lakesideRide().fixes
        let deferred = Subscriber(
            id: .handler("d"), services: ServiceSubscription(standard: .init(deferredInterval: 600), activity: .fitness))
        var stored = Stored()
        var before = DevicePipeline(regions: [], subscribers: [deferred])
        let first = Self.serviceRecords(Self.run(&before, fixes[..<300], into: &stored))
        #expect(first.isEmpty, "the first ten minutes are still held")
        var after = DevicePipeline(regions: [], savedMarks: stored.savedMarks, subscribers: [deferred])
        let second = Self.run(&after, fixes[300...], into: &stored) + after.finish()
        let times = Self.serviceRecords(second)
        #expect(!times.isEmpty)
        #expect(!times.contains { $0.contains(fixes[0].time!.rfc3339) }, "the held fixes are not delivered")
        // The next batch starts with the first fix after the restart the standard updates keep
        // (the ride's fixes carry their HDOP's accuracy, and the filter drops the poorer ones).
        let firstKept = try #require(fixes[300...].first { fix in times.contains { $0.contains(fix.time!.rfc3339) } })
        #expect(times.first?.contains(firstKept.time!.rfc3339) == true)
    }
}

extension Timestamp {
    fileprivate static func + (time: Timestamp, seconds: Double) -> Timestamp {
        Timestamp(nanosecondsSince1970: time.nanosecondsSince1970 + Int64(seconds * 1e9))
    }
}
