import Foundation
import Testing
import WaymarkCore
import WaymarkPower
import WaymarkRegions
import WaymarkSimulation
import WaymarkSources
import WaymarkTestSupport

/// The simulated OwnTracks phone (docs/devices.md, "Phone simulator"): its reports in each mode,
/// the OS's geofencing rule, the commands it obeys or ignores, the window misses it counts.
@Suite struct PhoneSimulatorTests {
    static let ride = ProjectPaths.repositoryRoot.appendingPathComponent("Tracks/lakeside-ride.gpx").path

    static func rideFixes() throws -> [Fix] { try GPXFixSource.fixes(atPath: ride) }

    /// Every message of a run, the phone answered by `reply` (given the message, returns the daemon's body).
    static func play(
        _ phone: inout PhoneSimulator, reply: (PhoneMessage) -> String? = { _ in nil }
    ) -> [PhoneMessage] {
        var messages: [PhoneMessage] = []
        while let message = phone.next() {
            messages.append(message)
            if let body = reply(message) { phone.receive(reply: body) }
        }
        return messages
    }

    static func locations(_ messages: [PhoneMessage]) -> [PhoneMessage] { messages.filter { !$0.isTransition } }

    static func setWaypoints(_ circles: [(id: String, center: Coordinate, radius: Double)]) -> String {
        let list = circles.map {
            #"{"_type":"waypoint","desc":"\#($0.id)","rid":"\#($0.id)","lat":\#($0.center.latitude),"lon":\#($0.center.longitude),"rad":\#($0.radius),"tst":1700000000}"#
        }
        return #"[{"_type":"cmd","action":"setWaypoints","waypoints":{"_type":"waypoints","waypoints":[\#(list.joined(separator: ","))]}}]"#
    }

    /// A straight walk east at `speed` m/s from `start`, one recorded point every `every` s.
    static func walk(from start: Coordinate, seconds: Int, speed: Double, every: Int = 5) -> [Fix] {
        let t0 = Timestamp(rfc3339: "2026-06-01T08:00:00Z")!
        return stride(from: 0, through: seconds, by: every).map { second in
            Fix(time: t0.adding(seconds: Double(second)), coordinate: Geodesic.destination(from: start, azimuth: 90, distance: speed * Double(second)))
        }
    }

    @Test func significantModeReportsOnlyAfter500MetresAndFiveMinutesWithNetworkAccuracy() throws {
        var phone = PhoneSimulator(track: try Self.rideFixes(), settings: .init(mode: .significant, remoteConfiguration: true, seed: 3))
        let reports = Self.locations(Self.play(&phone))
        // 49 minutes: the first report, then one per 5 minutes at the most.
        #expect((8...11).contains(reports.count), "\(reports.count) reports")
        for (a, b) in zip(reports, reports.dropFirst()) {
            #expect(b.time.seconds(since: a.time) >= 300)
        }
        #expect(reports.allSatisfy { (65...200).contains($0.accuracy) && $0.mode == .significant && $0.json.contains(#""m":1"#) })
        #expect(phone.account.networkFixes == reports.count && phone.account.gnssFixes == 0)
        let seconds = phone.account.secondsInMode[.significant] ?? 0
        #expect(abs(seconds - 2940) < 120, "\(seconds) s")
    }

    @Test func moveModeReportsEveryDisplacementOrIntervalWhicheverComesFirst() throws {
        var settings = PhoneSimulator.Settings(mode: .move, remoteConfiguration: true, seed: 3)
        settings.locatorDisplacement = 200
        settings.locatorInterval = 60
        var phone = PhoneSimulator(track: try Self.rideFixes(), settings: settings)
        let reports = Self.locations(Self.play(&phone))
        let gaps = zip(reports, reports.dropFirst()).map { $1.time.seconds(since: $0.time) }
        #expect(gaps.allSatisfy { $0 <= 60 })
        // Moving, the displacement decides (about 12 km / 200 m); a stop, the interval ("t").
        #expect((50...80).contains(reports.count), "\(reports.count) reports")
        #expect(reports.allSatisfy { (5...10).contains($0.accuracy) && $0.mode == .move })

        // Standing still, only the interval: one report a minute.
        var still = PhoneSimulator(track: Self.walk(from: Coordinate(latitude: 47, longitude: 8), seconds: 600, speed: 0), settings: settings)
        let stillReports = Self.locations(Self.play(&still))
        #expect(stillReports.count == 11)
        #expect(stillReports.dropFirst().allSatisfy { $0.json.contains(#""t":"t""#) })
    }

    @Test func aCrossingIsReportedOnlyAfter20SecondsPastTheBoundaryByTheMargin() throws {
        let start = Coordinate(latitude: 47, longitude: 8)
        // 1 m/s east; the circle's western edge 300 m ahead.
        let center = Geodesic.destination(from: start, azimuth: 90, distance: 500)
        let track = Self.walk(from: start, seconds: 1000, speed: 1)
        var phone = PhoneSimulator(track: track, settings: .init(mode: .significant, remoteConfiguration: true, seed: 1))
        var sent = false
        let messages = Self.play(&phone) { _ in
            defer { sent = true }
            return sent ? nil : Self.setWaypoints([("pond", center, 200)])
        }
        let transitions = messages.filter(\.isTransition)
        try #require(transitions.count == 2, "\(transitions.map(\.json))")
        // In at 300 m, 50 m past at 350 m (350 s), then 20 s more.
        let t0 = track[0].time!
        #expect(abs(transitions[0].time.seconds(since: t0) - 370) <= 1)
        #expect(transitions[0].json.contains(#""event":"enter""#) && transitions[0].json.contains(#""rid":"pond""#))
        #expect(transitions[0].json.contains(#""wtst":1700000000"#) && transitions[0].json.contains(#""t":"c""#))
        // Out at 700 m, 50 m past at 750 m, then 20 s.
        #expect(abs(transitions[1].time.seconds(since: t0) - 770) <= 1)
        #expect(transitions[1].json.contains(#""event":"leave""#))

        // Dipping 60 m inside for 15 s only is no crossing.
        var dip: [Fix] = []
        for second in 0...400 {
            let depth: Double = (200...215).contains(second) ? 60 : -100
            dip.append(Fix(time: t0.adding(seconds: Double(second)), coordinate: Geodesic.destination(from: center, azimuth: 270, distance: 200 - depth)))
        }
        var dipping = PhoneSimulator(track: dip, settings: .init(mode: .move, remoteConfiguration: true, seed: 1))
        sent = false
        let dipMessages = Self.play(&dipping) { _ in
            defer { sent = true }
            return sent ? nil : Self.setWaypoints([("pond", center, 200)])
        }
        #expect(dipMessages.filter(\.isTransition).isEmpty)
    }

    static let toMove = #"[{"_type":"cmd","action":"setConfiguration","configuration":{"_type":"configuration","monitoring":2,"locatorInterval":10,"locatorDisplacement":50}}]"#

    @Test func commandsAreObeyedWithRemoteConfigurationAndIgnoredWithout() throws {
        for remote in [true, false] {
            var phone = PhoneSimulator(track: try Self.rideFixes(), settings: .init(mode: .significant, remoteConfiguration: remote, seed: 1))
            var count = 0
            let messages = Self.play(&phone) { _ in
                count += 1
                switch count {
                case 1: return Self.toMove
                case 2: return #"[{"_type":"cmd","action":"reportLocation"},{"_type":"cmd","action":"dump"}]"#
                default: return "[]"
                }
            }
            if remote {
                #expect(phone.mode == .move && phone.locatorInterval == 10 && phone.locatorDisplacement == 50)
                // The switch is confirmed by a move-mode location a second later.
                #expect(messages[1].mode == .move && messages[1].time.seconds(since: messages[0].time) == 1)
                #expect(messages[2].json.contains(#""t":"r""#))
                #expect(phone.account.commandsObeyed == 2 && phone.account.commandsIgnored == 1)
                #expect(phone.account.modeSwitches == 1 && (phone.account.secondsInMode[.move] ?? 0) > 2900)
            } else {
                #expect(phone.mode == .significant && phone.account.modeSwitches == 0)
                #expect(phone.account.commandsReceived == 3 && phone.account.commandsIgnored == 3 && phone.account.commandsObeyed == 0)
                #expect(messages.allSatisfy { $0.mode == .significant })
            }
        }
        // A reply that is not JSON is counted, not fatal.
        var phone = PhoneSimulator(track: try Self.rideFixes(), settings: .init())
        _ = phone.next()
        phone.receive(reply: "<html>502</html>")
        #expect(phone.account.repliesUnreadable == 1 && phone.account.commandsReceived == 0)
    }

    @Test func clearWaypointsAndMergeByRegionID() throws {
        var phone = PhoneSimulator(track: try Self.rideFixes(), settings: .init())
        _ = phone.next()
        let a = Coordinate(latitude: 47.3, longitude: 8.5)
        phone.receive(reply: Self.setWaypoints([("a", a, 100), ("b", a, 200)]))
        phone.receive(reply: Self.setWaypoints([("b", a, 300), ("c", a, 100)]))
        #expect(phone.waypoints.map(\.waypoint.key) == ["a", "b", "c"] && phone.waypoints[1].waypoint.radius == 300)
        phone.receive(reply: #"[{"_type":"cmd","action":"clearWaypoints"}]"#)
        #expect(phone.waypoints.isEmpty && phone.account.maxWaypointsHeld == 3)
    }

    @Test func windowMissesCountEntriesIntoRegionsThePhoneDoesNotWatch() throws {
        let start = Coordinate(latitude: 47, longitude: 8)
        let track = Self.walk(from: start, seconds: 3000, speed: 2)
        // 25 circles 200 m apart along the walk, 50 m radius, none at the start.
        let circles = (1...25).map { ("r\($0)", Geodesic.destination(from: start, azimuth: 90, distance: Double($0) * 200), 50.0) }
        let regions = circles.map { Region(identifier: $0.0, shape: .circle(center: $0.1, radius: $0.2)) }
        // The phone is sent all 25: iOS watches the first 20, so entering the last five is a miss.
        var phone = PhoneSimulator(track: track, settings: .init(), regions: regions)
        var sent = false
        _ = Self.play(&phone) { _ in
            defer { sent = true }
            return sent ? nil : Self.setWaypoints(circles.map { ($0.0, $0.1, $0.2) })
        }
        #expect(phone.account.regionEntries == 25)
        #expect(phone.account.windowMisses == 5)
        #expect(phone.account.missedEntries.map(\.region) == ["r21", "r22", "r23", "r24", "r25"])
        #expect(phone.account.maxWaypointsHeld == 25)

        // Holding only the first three: 22 misses.
        var few = PhoneSimulator(track: track, settings: .init(), regions: regions)
        sent = false
        _ = Self.play(&few) { _ in
            defer { sent = true }
            return sent ? nil : Self.setWaypoints(circles.prefix(3).map { ($0.0, $0.1, $0.2) })
        }
        #expect(few.account.windowMisses == 22)
    }

    /// Steering's departure fence (`waymark-departure`, a circle around where the phone stood
    /// still) is watched as any held circle: it takes one of the 20 places, its leave fires when
    /// the phone walks off, and it is no region, so no entry into it is a window miss.
    @Test func aDepartureFenceIsWatchedWithinTheLimitAndIsNoWindowMiss() throws {
        let start = Coordinate(latitude: 47, longitude: 8)
        let t0 = Timestamp(rfc3339: "2026-06-01T08:00:00Z")!
        // Ten minutes still, then ten minutes east at 2 m/s.
        let track = stride(from: 0, through: 1200, by: 5).map { second in
            Fix(time: t0.adding(seconds: Double(second)), coordinate: Geodesic.destination(from: start, azimuth: 90, distance: 2 * max(Double(second) - 600, 0)))
        }
        let far = (1...18).map { ("f\($0)", Geodesic.destination(from: start, azimuth: 0, distance: 5_000 + Double($0) * 300), 100.0) }
        let entered = ("r", Geodesic.destination(from: start, azimuth: 90, distance: 600), 150.0)
        let fence = ("waymark-departure", start, 100.0)
        let late = ("late", Geodesic.destination(from: start, azimuth: 90, distance: 1_000), 100.0)
        let regions = (far + [entered, late]).map { Region(identifier: $0.0, shape: .circle(center: $0.1, radius: $0.2)) }
        var phone = PhoneSimulator(track: track, settings: .init(), regions: regions)
        var sent = false
        let messages = Self.play(&phone) { _ in
            defer { sent = true }
            return sent ? nil : Self.setWaypoints((far + [entered, fence, late]).map { ($0.0, $0.1, $0.2) })
        }
        #expect(phone.watchedKeys.count == 20 && phone.watchedKeys.contains("waymark-departure") && !phone.watchedKeys.contains("late"))
        let leaves = messages.filter { $0.isTransition && $0.json.contains(#""rid":"waymark-departure""#) }
        #expect(leaves.count == 1 && leaves.first?.json.contains(#""event":"leave""#) == true, "\(leaves.map(\.json))")
        // Entering r is watched; entering late (past the limit) is the one miss.
        #expect(phone.account.regionEntries == 2 && phone.account.windowMisses == 1)
        #expect(phone.account.missedEntries.map(\.region) == ["late"])
    }

    @Test func theSameSeedGivesTheSameRunAndAnotherSeedAnotherOne() throws {
        func run(_ seed: UInt64) throws -> ([String], PhoneAccount) {
            var phone = PhoneSimulator(track: try Self.rideFixes(), settings: .init(mode: .significant, remoteConfiguration: true, seed: seed))
            var count = 0
            let messages = Self.play(&phone) { _ in
                count += 1
                return count == 3 ? Self.toMove : "[]"
            }
            return (messages.map(\.json), phone.account)
        }
        let (a, accountA) = try run(5)
        let (b, accountB) = try run(5)
        let (c, _) = try run(6)
        #expect(a == b && accountA == accountB)
        #expect(a != c && a.count == c.count)
    }

    /// A ride someone recorded (third-party data, its own pauses and jitter): both modes' rules
    /// hold on it, measured against the truth the simulator plays.
    @Test func theModesRulesHoldOnARecordedRide() throws {
        let track = try GPXFixSource.fixes(atPath: ProjectPaths.sharedData("gpx/bikeride.gpx").path)
        var significant = PhoneSimulator(track: track, settings: .init(mode: .significant, remoteConfiguration: true, seed: 1))
        let coarse = Self.locations(Self.play(&significant))
        #expect(coarse.count >= 3)
        #expect(zip(coarse, coarse.dropFirst()).allSatisfy { $1.time.seconds(since: $0.time) >= 300 })
        var settings = PhoneSimulator.Settings(mode: .move, remoteConfiguration: true, seed: 1)
        settings.locatorInterval = 30
        var move = PhoneSimulator(track: track, settings: settings)
        let fine = Self.locations(Self.play(&move))
        // Move mode reports far more often, never more than the interval apart (where the recording has no hole).
        #expect(fine.count > coarse.count * 10)
        #expect(zip(fine, fine.dropFirst()).allSatisfy { let gap = $1.time.seconds(since: $0.time); return gap <= 30 || gap > 300 })
        #expect(move.energy().joulesPerHour > significant.energy().joulesPerHour * 2)
    }

    @Test func aNoisyTrackWithGapsAndUntimedPointsIsPlayedWithoutInventingTheGap() throws {
        let noisy = FixNoise(sigma: 20, correlationTime: 60, outlierRate: 0.03, reportsAccuracy: false, seed: 9).apply(to: try Self.rideFixes())
        let t0 = noisy[0].time!
        // A 15-minute hole, points without a time, and one going back in time.
        var track = noisy.filter { fix in
            let s = fix.time!.seconds(since: t0)
            return !(900..<1800).contains(s)
        }
        track[40].time = nil
        track[80].time = track[10].time
        var phone = PhoneSimulator(track: track, settings: .init(mode: .move, remoteConfiguration: true, seed: 2))
        let reports = Self.locations(Self.play(&phone))
        #expect(!reports.contains { (900..<1799).contains($0.time.seconds(since: t0)) }, "a report inside the hole")
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $1.time >= $0.time })
        let energy = phone.energy()
        #expect(energy.moveSeconds > 1000 && (energy.joules[.gnss] ?? 0) > 0 && (energy.joules[.cellular] ?? 0) > 0)

        // Priced: move mode costs more an hour than significant on the same ride.
        var significant = PhoneSimulator(track: track, settings: .init(mode: .significant, remoteConfiguration: true, seed: 2))
        _ = Self.play(&significant)
        #expect(significant.energy().joulesPerHour < energy.joulesPerHour / 2)
    }
}
