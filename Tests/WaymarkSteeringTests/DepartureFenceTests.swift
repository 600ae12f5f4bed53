import Foundation
import Testing
import WaymarkCore
import WaymarkPower
import WaymarkRegions
import WaymarkSources
import WaymarkSteering

/// The departure fence (a still phone beside a region it cannot watch is given a circle of its
/// own, whose leave transition brings move mode back) and the hysteresis that keeps a confirmed
/// significant mode from a coarse fix's uncertainty.
@Suite struct DepartureFenceTests {
    static let centre = ModeSteeringTests.centre
    static let start = ModeSteeringTests.start

    /// `ModeSteeringTests`' regions: a 200 m square around `centre` (a polygon: the phone holds
    /// its trigger circle) and a 300 m circle 5 km east.
    let regions = ModeSteeringTests().regions

    static func place(metresWest: Double) -> Coordinate { Geodesic.destination(from: centre, azimuth: 270, distance: metresWest) }

    func report(_ seconds: Double, metresWest: Double, m: Int?, accuracy: Double? = 10) -> PhoneReport {
        PhoneReport(fix: Fix(time: Self.start.adding(seconds: seconds), coordinate: Self.place(metresWest: metresWest), horizontalAccuracy: accuracy), monitoringMode: m)
    }

    func object(_ command: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(command.utf8)) as? [String: Any])
    }

    /// The monitoring modes the commands ask for.
    func modes(_ commands: [String]) throws -> [Int] {
        try commands.compactMap { try (object($0)["configuration"] as? [String: Any])?["monitoring"] as? Int }
    }

    /// The waypoints of the commands' `setWaypoints`, nil when there is none.
    func waypoints(_ commands: [String]) throws -> [[String: Any]]? {
        for command in commands {
            let object = try object(command)
            guard object["action"] as? String == "setWaypoints" else { continue }
            return try #require((object["waypoints"] as? [String: Any])?["waypoints"] as? [[String: Any]])
        }
        return nil
    }

    /// A phone that stops 200 m west of the polygon (its boundary) for six minutes, reporting in
    /// move mode with a wandering fix; the commands of every report.
    func parkBesideThePolygon(_ steering: inout PhoneSteering) -> [[String]] {
        var sent: [[String]] = []
        for step in 0...36 {
            let wander = Double(step % 5) * 4 - 8
            sent.append(steering.commands(after: report(Double(step) * 10, metresWest: 300 + wander, m: 2, accuracy: 10 + Double(step % 3) * 5), regions: regions))
        }
        return sent
    }

    @Test func aStillPhoneBesideAPolygonIsGivenAFenceWithItsSignificantMode() throws {
        var steering = PhoneSteering(mode: ModeSteering(policy: .auto), window: WindowSteering(size: 20))
        let sent = parkBesideThePolygon(&steering)
        let switchIndex = try #require(try sent.firstIndex { try modes($0) == [1] }, "never sent back to significant: \(sent)")
        let fence = try #require(try waypoints(sent[switchIndex])?.first { $0["rid"] as? String == DepartureFence.identifier }, "\(sent[switchIndex])")
        #expect(fence["tst"] as? Int == 946_684_800)
        #expect((fence["rad"] as? Double ?? 0) >= 100)
        let (lat, lon) = (try #require(fence["lat"] as? Double), try #require(fence["lon"] as? Double))
        #expect(Geodesic.distance(Coordinate(latitude: lat, longitude: lon), Self.place(metresWest: 300)) < 20)
        // The polygon is still held beside it, and the clear comes first so the phone holds exactly these.
        #expect(try waypoints(sent[switchIndex])?.contains { $0["desc"] as? String == "yard" } == true)
        #expect(sent[switchIndex].first == OwnTracksReply.clearWaypointsCommand)
        #expect(steering.window.fence != nil)
        // Confirmed and still: the fence is not sent again.
        for step in 0..<5 {
            #expect(steering.commands(after: report(400 + Double(step) * 300, metresWest: 300, m: 1, accuracy: 30), regions: regions).isEmpty)
        }
    }

    /// The fence takes one of the window's N places.
    @Test func theFenceIsCountedInTheWindow() throws {
        var steering = PhoneSteering(mode: ModeSteering(policy: .auto), window: WindowSteering(size: 2))
        let sent = parkBesideThePolygon(&steering)
        let switchIndex = try #require(try sent.firstIndex { try modes($0) == [1] })
        let held = try #require(try waypoints(sent[switchIndex]))
        #expect(held.compactMap { $0["rid"] as? String }.sorted() == [DepartureFence.identifier, "yard"])
    }

    /// The phone's leave transition for the fence (a coarse one its stillness alone would have
    /// absorbed) brings move mode back; once it reports outside the fence, the fence is dropped.
    @Test func leavingTheFenceBringsMoveModeAndTheFenceIsDroppedLater() throws {
        var steering = PhoneSteering(mode: ModeSteering(policy: .auto), window: WindowSteering(size: 20))
        _ = parkBesideThePolygon(&steering)
        _ = steering.commands(after: report(400, metresWest: 300, m: 1), regions: regions)
        let leftAt = Geodesic.destination(from: Self.place(metresWest: 300), azimuth: 90, distance: 120)
        let leave = OwnTracksTransition(
            event: .leave, time: Self.start.adding(seconds: 700),
            fix: Fix(time: Self.start.adding(seconds: 700), coordinate: leftAt, horizontalAccuracy: 100), regionName: DepartureFence.identifier,
            regionID: DepartureFence.identifier)
        let report = try #require(PhoneReport.latest(in: [.transition(leave)]))
        #expect(report.leftDepartureFence && report.fromTransition)
        let afterLeave = steering.commands(after: report, regions: regions)
        #expect(try modes(afterLeave) == [2], "\(afterLeave)")
        // A transition is no location: the fence stays until a report places the phone outside it.
        #expect(steering.window.fence != nil)
        let inside = steering.commands(after: self.report(710, metresWest: 0, m: 2), regions: regions)
        let held = try #require(try waypoints(inside), "\(inside)")
        #expect(!held.contains { $0["rid"] as? String == DepartureFence.identifier })
        #expect(held.contains { $0["desc"] as? String == "yard" })
        #expect(steering.window.fence == nil)
    }

    /// A still phone far from any polygon needs no fence: its significant mode is the policy's
    /// plain answer there.
    @Test func aStillPhoneFarFromPolygonsGetsNoFence() throws {
        var steering = PhoneSteering(mode: ModeSteering(policy: .auto), window: WindowSteering(size: 20))
        for step in 0...40 {
            let sent = steering.commands(after: report(Double(step) * 10, metresWest: 2_000 + Double(step % 4) * 5, m: 1, accuracy: 80), regions: regions)
            #expect(try waypoints(sent)?.contains { $0["rid"] as? String == DepartureFence.identifier } != true)
        }
        #expect(steering.window.fence == nil)
    }

    /// Right after the phone confirms significant mode, a coarse network fix at the same place
    /// (its 150 m would reach the boundary, its position does not) keeps it there; a fix whose
    /// position truly comes within reach still sends move mode.
    @Test func aConfirmedSignificantModeIsNotUndoneByACoarseFix() throws {
        var steering = ModeSteering(policy: .auto)
        #expect(steering.commands(after: report(0, metresWest: 3_000, m: 1), regions: regions).isEmpty)
        // After a long gap (no speed known), 350 m from the boundary: significant, confirmed.
        #expect(steering.commands(after: report(2_000, metresWest: 450, m: 1), regions: regions).isEmpty)
        #expect(steering.snapshot.desired == .significant && steering.snapshot.confirmedAt != nil)
        for (seconds, accuracy) in [(2_030.0, 150.0), (2_060, 200), (2_090, 65)] {
            let sent = steering.commands(after: report(seconds, metresWest: 450, m: 1, accuracy: accuracy), regions: regions)
            #expect(sent.isEmpty, "a coarse fix of \(accuracy) m at the same place: \(sent)")
        }
        #expect(steering.snapshot.desired == .significant)
        let nearer = steering.commands(after: report(2_150, metresWest: 250, m: 1, accuracy: 150), regions: regions)
        #expect(try modes(nearer) == [2], "150 m from the boundary: \(nearer)")
    }
}
