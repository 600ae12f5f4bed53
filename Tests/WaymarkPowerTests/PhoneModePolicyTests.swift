import Testing
import WaymarkCore
import WaymarkPower
import WaymarkRegions

@Suite struct PhoneModePolicyTests {
    let policy = PhoneModePolicy.standard

    /// Enter move within the trigger's reach (250 m, or 60 s at the phone's speed), leave only
    /// beyond twice it.
    @Test(arguments: [
        // (current, distance, accuracy, speed, expected)
        (PhoneMode.significant, 200.0, 10.0 as Double?, 1.0 as Double?, PhoneMode.move),
        (.significant, 255.0, 10, 1, .move),  // 245 m of clearance: within 250 m
        (.significant, 270.0, 10, 1, .significant),  // 260 m, and 173 s at the walking floor
        (.significant, 400.0, 10, 1, .significant),
        (.significant, 400.0, 250, 1, .move),  // the fix's uncertainty counts (up to 200 m)
        (.significant, 1_500.0, 1_500, 1, .significant),  // a cell fix's 1.5 km is capped
        (.significant, 900.0, 10, 15, .move),  // 15 m/s covers the 890 m within 60 s
        (.significant, 1_300.0, 10, 15, .significant),
        (.move, 450.0, 10, 1, .move),  // inside the wider exit band
        (.move, 600.0, 10, 1, .significant),
        (.move, 1_700.0, 10, 15, .move),
        (.move, 2_000.0, 10, 15, .significant),
        (.significant, .infinity, nil, nil, .significant),
    ])
    func theApproachDecides(current: PhoneMode, distance: Double, accuracy: Double?, speed: Double?, expected: PhoneMode) {
        #expect(policy.mode(current: current, distance: distance, uncertainty: accuracy, speed: speed, stillFor: 0) == expected)
    }

    @Test func aStillPhoneIsSignificantWhereverItIs() {
        #expect(policy.mode(current: .move, distance: 5, uncertainty: 10, speed: 0, stillFor: 299) == .move)
        #expect(policy.mode(current: .move, distance: 5, uncertainty: 10, speed: 0, stillFor: 300) == .significant)
    }

    /// A phone parked inside a polygon region for two hours, its fixes wandering tens of metres
    /// (some without accuracy, a few far outliers that say they are poor): it ends in
    /// significant mode after the still duration and stays there — one change, no flapping.
    @Test func aParkedNoisyPhoneSettlesInSignificantMode() {
        let parking = Coordinate(latitude: 47.3700, longitude: 8.5400)
        let index = square(around: parking, half: 0.001)  // ~110 m to the nearest edge
        var random = SplitMix64(seed: 7)
        var motion = PhoneMotion()
        var mode = PhoneMode.significant
        var changes: [(Double, PhoneMode)] = []
        let start = Timestamp(secondsSince1970: 1_780_000_000)
        for step in 0..<720 {  // every 10 s for two hours
            let seconds = Double(step) * 10
            let outlier = step % 97 == 50
            let accuracy: Double? = outlier ? 800 : (step % 11 == 0 ? nil : Double.random(in: 5...40, using: &random))
            let wander = outlier ? 600 : Double.random(in: 0...35, using: &random)
            let fix = Geodesic.destination(from: parking, azimuth: Double.random(in: 0..<360, using: &random), distance: wander)
            let time = start.adding(seconds: seconds)
            motion.take(time: time, coordinate: fix, accuracy: accuracy, reportedSpeed: nil, policy: policy)
            let next = policy.mode(
                current: mode, distance: index.distanceToNearestBoundary(from: fix, limit: 50_000), uncertainty: accuracy,
                speed: motion.speed, stillFor: motion.stillFor(at: time))
            if next != mode { changes.append((seconds, next)) }
            mode = next
        }
        // Near the edge at first (move), then still: significant within the still duration plus
        // a minute's noise, and no change after.
        #expect(changes.count == 2, "\(changes)")
        #expect(changes.first?.1 == .move)
        #expect(changes.last?.1 == .significant)
        #expect((changes.last?.0 ?? .infinity) <= policy.stillDuration + 60)
    }

    /// The same phone, sparse: in significant mode it reports every 20–40 minutes with Wi-Fi
    /// accuracy; it stays still however long the gaps.
    @Test func sparseReportsKeepAStillPhoneStill() {
        let home = Coordinate(latitude: 51.5, longitude: -0.12)
        var random = SplitMix64(seed: 3)
        var motion = PhoneMotion()
        var time = Timestamp(secondsSince1970: 1_780_000_000)
        for _ in 0..<12 {
            let fix = Geodesic.destination(from: home, azimuth: Double.random(in: 0..<360, using: &random), distance: Double.random(in: 0...90, using: &random))
            motion.take(time: time, coordinate: fix, accuracy: 65, reportedSpeed: nil, policy: policy)
            time = time.adding(seconds: Double.random(in: 1_200...2_400, using: &random))
        }
        #expect(motion.stillFor(at: time) > 3 * 3_600)
    }

    /// A walker is never still, and its speed comes from its reports when it states none; a
    /// report from before the latest one (a backlog) changes nothing.
    /// A transition sent with a position 16 km from the fix a second before is a jump, not
    /// 16 km/s: it implies no speed (a fleet test's phone was sent move mode for it).
    @Test func aPositionJumpImpliesNoSpeed() {
        var motion = PhoneMotion()
        let start = Timestamp(secondsSince1970: 1_780_000_000)
        motion.take(time: start, coordinate: Coordinate(latitude: 47.36, longitude: 8.68), accuracy: nil, reportedSpeed: nil, policy: policy)
        motion.take(time: start.adding(seconds: 1), coordinate: Coordinate(latitude: 47.3, longitude: 8.5), accuracy: 5, reportedSpeed: nil, policy: policy)
        #expect(motion.speed == nil)
        motion.take(time: start.adding(seconds: 11), coordinate: Coordinate(latitude: 47.3, longitude: 8.5012), accuracy: 5, reportedSpeed: nil, policy: policy)
        #expect(motion.speed.map { abs($0 - 8.1) < 0.5 } == true, "\(String(describing: motion.speed))")
    }

    @Test func aWalkerMovesAndItsSpeedIsDerived() {
        var motion = PhoneMotion()
        let start = Timestamp(secondsSince1970: 1_780_000_000)
        var here = Coordinate(latitude: 46.0, longitude: 7.0)
        for step in 0..<60 {
            motion.take(time: start.adding(seconds: Double(step) * 10), coordinate: here, accuracy: 8, reportedSpeed: nil, policy: policy)
            here = Geodesic.destination(from: here, azimuth: 90, distance: 40)  // 4 m/s
            #expect(motion.stillFor(at: start.adding(seconds: Double(step) * 10)) < policy.stillDuration)
        }
        #expect(abs((motion.speed ?? 0) - 2.4) < 0.2)  // 40 m less both fixes' 8 m, over 10 s
        let before = motion.stillSince
        motion.take(time: start, coordinate: Coordinate(latitude: 10, longitude: 10), accuracy: 5, reportedSpeed: nil, policy: policy)
        #expect(motion.stillSince == before)
        // A gap too long to say anything about speed.
        motion.take(time: start.adding(seconds: 5_000), coordinate: here, accuracy: 8, reportedSpeed: nil, policy: policy)
        #expect(motion.speed == nil)
    }

    private func square(around c: Coordinate, half: Double) -> RegionIndex {
        let ring = [(-half, -half), (half, -half), (half, half), (-half, half), (-half, -half)].map {
            Coordinate(latitude: c.latitude + $0.1, longitude: c.longitude + $0.0)
        }
        return RegionIndex(regions: [Region(identifier: "car park", shape: .polygons([Polygon(exterior: ring)]))])
    }
}
