import Foundation
import Testing
import WaymarkCore
import WaymarkPower
import WaymarkRegions
import WaymarkSources
import WaymarkSteering

@Suite struct ModeSteeringTests {
    static let centre = Coordinate(latitude: 47.37, longitude: 8.54)
    static let start = Timestamp(secondsSince1970: 1_780_000_000)

    /// A 200 m square (a polygon: the phone cannot watch it) and a 300 m circle 5 km east (which it can).
    let regions: SteeringRegions = {
        let d = 0.0009
        let ring = [(-d, -d), (d, -d), (d, d), (-d, d), (-d, -d)].map { Coordinate(latitude: centre.latitude + $0.1, longitude: centre.longitude + $0.0 * 1.5) }
        let far = Geodesic.destination(from: centre, azimuth: 90, distance: 5_000)
        return SteeringRegions(
            regions: [
                Region(identifier: "yard", shape: .polygons([Polygon(exterior: ring)])),
                Region(identifier: "park", shape: .circle(center: far, radius: 300)),
            ], created: [:])
    }()

    func report(_ seconds: Double, metresWest: Double, azimuth: Double = 270, m: Int?, accuracy: Double? = 10) -> PhoneReport {
        let place = Geodesic.destination(from: Self.centre, azimuth: azimuth, distance: metresWest)
        return PhoneReport(fix: Fix(time: Self.start.adding(seconds: seconds), coordinate: place, horizontalAccuracy: accuracy), monitoringMode: m)
    }

    func configuration(_ command: String) throws -> [String: Any] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(command.utf8)) as? [String: Any])
        #expect(object["_type"] as? String == "cmd")
        #expect(object["action"] as? String == "setConfiguration")
        return try #require(object["configuration"] as? [String: Any])
    }

    @Test func offNeverSendsAnything() {
        var steering = ModeSteering(policy: .off)
        for step in 0..<30 {
            #expect(steering.commands(after: report(Double(step) * 10, metresWest: 50, m: step % 2 == 0 ? nil : 1), regions: regions).isEmpty)
        }
        #expect(steering.snapshot.desired == nil)
        #expect(steering.snapshot.reportedMonitoring == 1)
    }

    /// Far: nothing. Near the polygon: move (with the keys both apps read). Confirmed by the next
    /// report's `m`. Far again: significant, with Android's significant-mode values restored.
    @Test func nearAPolygonTheCommandIsMoveAndFarItIsSignificant() throws {
        var steering = ModeSteering(policy: .auto)
        #expect(steering.commands(after: report(0, metresWest: 3_000, m: 1), regions: regions).isEmpty)
        #expect(steering.snapshot.desired == .significant)
        #expect(steering.snapshot.confirmedAt == Self.start)

        let toMove = steering.commands(after: report(300, metresWest: 400, m: 1), regions: regions)
        #expect(toMove.count == 1)
        let move = try configuration(try #require(toMove.first))
        #expect(move["_type"] as? String == "configuration")
        #expect(move["monitoring"] as? Int == 2)
        #expect(move["locatorInterval"] as? Int == 10)
        #expect(move["locatorDisplacement"] as? Int == 20)
        #expect(move["moveModeLocatorInterval"] as? Int == 10)
        #expect(steering.snapshot.lastCommandAt == Self.start.adding(seconds: 300))
        #expect(steering.snapshot.confirmedAt == nil)
        #expect(steering.snapshot.attempts == 1)

        #expect(steering.commands(after: report(310, metresWest: 380, m: 2), regions: regions).isEmpty)
        #expect(steering.snapshot.confirmedAt == Self.start.adding(seconds: 310))
        #expect(steering.snapshot.attempts == 0)
        #expect(steering.snapshot.reportedMonitoring == 2)

        // Inside the exit band (under 500 m plus the fix's error): still move.
        #expect(steering.commands(after: report(600, metresWest: 500, m: 2), regions: regions).isEmpty)
        let toSignificant = steering.commands(after: report(3_600, metresWest: 3_000, m: 2), regions: regions)
        let significant = try configuration(try #require(toSignificant.first))
        #expect(significant["monitoring"] as? Int == 1)
        #expect(significant["locatorInterval"] as? Int == 300)
        #expect(significant["locatorDisplacement"] as? Int == 500)
        #expect(significant["moveModeLocatorInterval"] == nil)
        #expect(steering.snapshot.desired == .significant)
    }

    /// A circle the phone watches itself needs no move mode, however near.
    @Test func anExactCircleNeedsNoMoveMode() {
        var steering = ModeSteering(policy: .auto)
        let nearPark = Geodesic.destination(from: Self.centre, azimuth: 90, distance: 5_250)
        let fix = Fix(time: Self.start, coordinate: nearPark, horizontalAccuracy: 10)
        #expect(steering.commands(after: PhoneReport(fix: fix, monitoringMode: 1), regions: regions).isEmpty)
        #expect(steering.snapshot.desired == .significant)
    }

    /// Far from every polygon, but near the edge of its region window (a region it does not
    /// hold could be reached before a significant-mode report): move; a wide window: significant.
    @Test func theWindowsEdgeCountsAsABoundary() {
        var near = ModeSteering(policy: .auto)
        #expect(near.commands(after: report(0, metresWest: 3_000, m: 1), regions: regions, windowEdge: 200).count == 1)
        #expect(near.snapshot.desired == .move)
        var wide = ModeSteering(policy: .auto)
        #expect(wide.commands(after: report(0, metresWest: 3_000, m: 1), regions: regions, windowEdge: 2_500).isEmpty)
        #expect(wide.snapshot.desired == .significant)
    }

    /// A phone that never changes `m` is asked three times, a few reports apart, then marked as
    /// ignoring commands and left alone; it is asked again once its `m` matches.
    @Test func aPhoneThatIgnoresCommandsIsAskedABoundedNumberOfTimes() {
        var steering = ModeSteering(policy: .auto)
        var sentAt: [Int] = []
        for step in 0..<40 {
            // Walking about near the yard's edge, never still for long.
            let commands = steering.commands(after: report(Double(step) * 10, metresWest: 150 + Double(step % 2) * 120, m: 1), regions: regions)
            if !commands.isEmpty { sentAt.append(step) }
        }
        #expect(sentAt == [0, 4, 8], "\(sentAt)")
        #expect(steering.snapshot.ignoresCommands)
        #expect(steering.snapshot.attempts == 3)
        #expect(steering.commands(after: report(400, metresWest: 150, m: 2), regions: regions).isEmpty)
        #expect(!steering.snapshot.ignoresCommands)
        #expect(steering.snapshot.confirmedAt == Self.start.adding(seconds: 400))
    }

    /// Once ignoring, a change of the wanted mode soon after is not sent; one after an hour is.
    @Test func anIgnoringPhoneIsAskedAgainAfterAnHour() {
        var steering = ModeSteering(policy: .auto)
        for step in 0..<20 { _ = steering.commands(after: report(Double(step) * 10, metresWest: 150 + Double(step % 2) * 120, m: nil), regions: regions) }
        #expect(steering.snapshot.ignoresCommands)
        #expect(steering.commands(after: report(1_200, metresWest: 4_000, m: nil), regions: regions).isEmpty)  // wants significant: too soon
        #expect(steering.snapshot.desired == .significant)
        #expect(steering.commands(after: report(1_300, metresWest: 150, m: nil), regions: regions).isEmpty)  // wants move: too soon
        #expect(steering.snapshot.desired == .move)
        #expect(steering.commands(after: report(5_000, metresWest: 4_000, m: nil), regions: regions).count == 1)
        #expect(steering.snapshot.desired == .significant)
        #expect(!steering.snapshot.ignoresCommands)
    }

    /// A stationary phone inside the yard, its fixes wandering and some without accuracy, that
    /// obeys: one command to significant once it has been still, none after (no flapping).
    @Test func aStationaryNoisyPhoneGetsOneCommand() throws {
        var steering = ModeSteering(policy: .auto)
        var random = SplitMix64(seed: 11)
        var m = 2
        var commands: [String] = []
        for step in 0..<360 {
            let seconds = Double(step) * (m == 2 ? 10 : 600)
            let wander = step % 53 == 20 ? 700 : Double.random(in: 0...30, using: &random)
            let accuracy: Double? = step % 53 == 20 ? 900 : (step % 7 == 0 ? nil : Double.random(in: 4...35, using: &random))
            let sent = steering.commands(
                after: report(seconds, metresWest: wander, azimuth: Double.random(in: 0..<360, using: &random), m: m, accuracy: accuracy), regions: regions)
            commands += sent
            if let last = sent.last { m = try configuration(last)["monitoring"] as? Int ?? m }
        }
        #expect(commands.count == 1)
        #expect(m == 1)
        #expect(!steering.snapshot.ignoresCommands)
    }

    /// A phone in significant mode reports its trigger circle's transition alone: that is when
    /// it is switched to move mode; the transition leaves its last `m` as it was, and a
    /// transition that changes nothing sends nothing.
    @Test func aTriggerTransitionAloneSwitchesThePhone() throws {
        var steering = ModeSteering(policy: .auto)
        _ = steering.commands(after: report(0, metresWest: 3_000, m: 1), regions: regions)
        let place = Geodesic.destination(from: Self.centre, azimuth: 270, distance: 300)
        let messages = try OwnTracksDecoder.decode(Array("""
            {"_type":"transition","event":"enter","desc":"yard","rid":"yard","lat":\(place.latitude),"lon":\(place.longitude),
             "tst":\(Int(Self.start.secondsSince1970) + 400),"wtst":1700000000,"acc":30,"t":"c"}
            """.utf8))
        let transition = try #require(PhoneReport.latest(in: messages))
        #expect(transition.fromTransition && transition.monitoringMode == nil)
        let sent = steering.commands(after: transition, regions: regions)
        #expect(try sent.map { try configuration($0)["monitoring"] as? Int } == [2])
        #expect(steering.snapshot.reportedMonitoring == 1)
        let again = PhoneReport(fix: Fix(time: Self.start.adding(seconds: 410), coordinate: place, horizontalAccuracy: 30), fromTransition: true)
        #expect(steering.commands(after: again, regions: regions).isEmpty)
        #expect(steering.snapshot.attempts == 1)
    }

    @Test func reportsWithoutTimeOrFromTheBacklogChangeNothing() {
        var steering = ModeSteering(policy: .auto)
        #expect(steering.commands(after: nil, regions: regions).isEmpty)
        let untimed = PhoneReport(fix: Fix(time: nil, coordinate: Self.centre), monitoringMode: 1)
        #expect(steering.commands(after: untimed, regions: regions).isEmpty)
        _ = steering.commands(after: report(1_000, metresWest: 3_000, m: 1), regions: regions)
        #expect(steering.commands(after: report(10, metresWest: 50, m: 1), regions: regions).isEmpty)
        #expect(steering.snapshot.desired == .significant)
    }
}
