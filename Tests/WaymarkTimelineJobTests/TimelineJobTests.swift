import Foundation
import Testing
import WaymarkCore
import WaymarkServices
import WaymarkStore
import WaymarkTestSupport
@testable import WaymarkTimelineJob

/// The job's answers on a real store: open segments, trips' paths and ends, local days, and its
/// errors.
@Suite struct TimelineJobTests {
    @Test func aDayInItsZoneWithTheOpenStay() async throws {
        let rig = try TimelineRig()
        let fixes = TimelineRig.days(1)
        try rig.record(fixes)
        let day = try await rig.job.day(device: "phone", TimelineDay("2026-06-01"), timeZone: "Europe/Berlin")
        #expect(day.from.rfc3339 == "2026-05-31T22:00:00Z")
        #expect(day.to.rfc3339 == "2026-06-01T22:00:00Z")
        let timeline = try await rig.job.timeline(device: "phone", from: day.from, to: day.to, timeZone: day.timeZone)
        #expect(timeline.timeZone == "Europe/Berlin")
        // The day ends at home, not yet left: the last entry is that open stay.
        #expect(timeline.lastIsOpen)
        guard case .stay(let last, _)? = timeline.entries.last else {
            Issue.record("the day does not end with a stay: \(timeline.entries.map(\.segment))")
            return
        }
        #expect(last.departure == fixes.last?.time)
        // Stays and trips alternate, and every trip joins the stays around it, its path drawn.
        for (index, entry) in timeline.entries.enumerated() {
            guard case .trip(let trip, let from, let to, let path) = entry else { continue }
            #expect(path.count >= 2)
            #expect(path.count <= trip.fixCount)
            #expect(path.first == trip.from && path.last == trip.to)
            if index > 0, case .stay(let stay, let place) = timeline.entries[index - 1] {
                #expect(stay.departure == trip.start)
                #expect(from == place)
            }
            if index + 1 < timeline.entries.count, case .stay(let stay, let place) = timeline.entries[index + 1] {
                #expect(stay.arrival == trip.end)
                #expect(to == place)
            }
        }
        // Without place data, local times are the day's zone.
        #expect(timeline.json.contains(#""localArrival":"2026-06-01T"#))
        #expect(timeline.json.contains("+02:00"))
    }

    @Test func theOpenTripIsMarkedOpen() async throws {
        let rig = try TimelineRig()
        let fixes = TimelineRig.days(1)
        // Stopped mid-ride (the second travel leg): the trip under way is the open entry.
        let cut = NoisyDay.start.adding(seconds: 90 * 60 + 1_500 / 1.3 + 38 * 60 + 400)
        try rig.record(fixes.filter { $0.time! < cut })
        let timeline = try await rig.job.timeline(device: "phone", from: TimelineRig.start, to: TimelineRig.end)
        #expect(timeline.lastIsOpen)
        guard case .trip(let trip, _, _, _)? = timeline.entries.last else {
            Issue.record("the last entry is not the trip under way: \(timeline.entries.map(\.segment))")
            return
        }
        #expect(trip.end <= cut)
        // A range ending before it does not show it, and is not open.
        let earlier = try await rig.job.timeline(device: "phone", from: TimelineRig.start, to: trip.start)
        #expect(!earlier.lastIsOpen)
    }

    @Test func aDeviceThatIsNotThere() async throws {
        let rig = try TimelineRig()
        try rig.record(TimelineRig.days(1), device: "phone")
        await #expect(throws: TimelineError(code: .unknownDevice, message: "no device 'tablet': it is not registered and has no history")) {
            _ = try await rig.job.timeline(device: "tablet", from: TimelineRig.start, to: TimelineRig.end)
        }
        await #expect(throws: TimelineError.self) { _ = try await rig.job.day(device: "tablet", TimelineDay("2026-06-01")) }
        // The daemon's own device with no history yet is known: an empty timeline.
        let local = try await rig.job.timeline(device: "local", from: TimelineRig.start, to: TimelineRig.end)
        #expect(local.entries.isEmpty && !local.lastIsOpen)
    }

    @Test func anEmptyOrBackwardRange() async throws {
        let rig = try TimelineRig()
        for (from, to) in [(TimelineRig.end, TimelineRig.start), (TimelineRig.start, TimelineRig.start)] {
            do {
                _ = try await rig.job.timeline(device: "phone", from: from, to: to)
                Issue.record("an empty range was accepted")
            } catch let error as TimelineError {
                #expect(error.code == .emptyRange)
                #expect(error.message.contains(from.rfc3339))
            }
        }
        await #expect(throws: TimelineError.self) {
            _ = try await rig.job.timeline(device: "local", from: TimelineRig.start, to: TimelineRig.end, timeZone: "Europe/Nowhere")
        }
    }

    @Test func theDayZoneDefaultsToUTCWithoutPlaceData() async throws {
        let rig = try TimelineRig()
        try rig.record(TimelineRig.days(1))
        let day = try await rig.job.day(device: "phone", TimelineDay("2026-06-01"))
        #expect(day.timeZone == "UTC")
        #expect(day.from.rfc3339 == "2026-06-01T00:00:00Z")
    }
}

/// A day across a DST change: 23 hours long, its local times before and after the change in the
/// offsets of their moment.
@Suite struct TimelineDSTTests {
    @Test func theDayTheClocksGoForwardInBerlin() async throws {
        let rig = try TimelineRig()
        // The noisy day moved to begin at 00:30 UTC on 2026-03-29 (01:30 in Berlin, winter time);
        // the clocks go forward at 01:00 UTC, during the first stay.
        let shift = Timestamp(rfc3339: "2026-03-29T00:30:00Z")!.seconds(since: NoisyDay.start)
        let fixes = NoisyDay().fixes.map { fix in
            var moved = fix
            moved.time = fix.time?.adding(seconds: shift)
            return moved
        }
        try rig.record(fixes)
        let day = try await rig.job.day(device: "phone", TimelineDay("2026-03-29"), timeZone: "Europe/Berlin")
        #expect(day.to.seconds(since: day.from) == 23 * 3_600)
        let timeline = try await rig.job.timeline(device: "phone", from: day.from, to: day.to, timeZone: day.timeZone)
        guard case .stay(let first, _)? = timeline.entries.first else {
            Issue.record("the day does not begin with a stay")
            return
        }
        #expect(first.arrival == fixes.first?.time)
        let json = timeline.json
        #expect(json.contains(#""localArrival":"2026-03-29T01:30:00+01:00""#))
        let departure = Timestamp(nanosecondsSince1970: first.departure.nanosecondsSince1970 + 3_600_000_000_000 * 2)
        #expect(json.contains(#""localDeparture":""# + String(departure.rfc3339.dropLast().prefix(19)) + #"+02:00""#))
        // The day before, in the same zone, is 24 hours and holds none of it.
        let before = try await rig.job.day(device: "phone", TimelineDay("2026-03-28"), timeZone: "Europe/Berlin")
        #expect(before.to == day.from)
        #expect(try await rig.job.timeline(device: "phone", from: before.from, to: before.to).entries.isEmpty)
    }
}
