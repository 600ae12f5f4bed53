import Foundation
import Testing
import WaymarkBeacons
import WaymarkCore
import WaymarkRegions

/// Ranging: the path-loss distance, proximity classes, the window mean and the once-a-second cadence.
@Suite struct BeaconRangingTests {
    @Test(
        "distance from measured power by the log-distance model with n = 2",
        arguments: [(-59.0, 1.0), (-65.0, 1.995), (-79.0, 10.0), (-53.0, 0.501), (-99.0, 100.0)])
    func pathLoss(rssi: Double, metres: Double) throws {
        let d = try #require(PathLossModel().distance(rssi: rssi, measuredPower: -59))
        #expect(abs(d - metres) < 0.001 * metres)
    }

    @Test func unknownPowersGiveNoDistance() {
        #expect(PathLossModel().distance(rssi: 0, measuredPower: -59) == nil)
        #expect(PathLossModel().distance(rssi: -70, measuredPower: 0) == nil)
    }

    @Test(
        "proximity classes: immediate < 0.5 m, near < 3 m, far",
        arguments: [(0.0, Proximity.immediate), (0.499, .immediate), (0.5, .near), (2.999, .near), (3.0, .far), (40, .far)])
    func proximity(distance: Double, expected: Proximity) {
        #expect(Proximity(distance: distance) == expected)
    }

    @Test func theRSSIIsTheMeanOfTheLastFiveSeconds() throws {
        var ranger = BeaconRanger()
        for (t, rssi) in [(0.0, -90), (1, -60), (2, -62), (3, -58), (4, -60), (5.5, -61), (6, -59)] {
            ranger.record(advertisement(rssi: Int8(rssi), at: t))
        }
        let ranged = try #require(ranger.range(at: at(6)).first)
        // Samples in (1 s, 6 s]: −62, −58, −60, −61, −59; the −90 at 0 s and −60 at 1 s are out.
        #expect(ranged.samples == 5)
        #expect(ranged.rssi == -60)
        #expect(ranged.proximity == .near)
    }

    @Test func aWalkTowardsABeaconGoesFarNearImmediateThenUnknownThenGone() {
        // Measured power −59 dBm: −75 dBm ≈ 6.3 m (far), −63 ≈ 1.6 m (near), −50 ≈ 0.35 m (immediate).
        var ranger = BeaconRanger()
        var classes: [String] = []
        var series: [(Double, Int8)] = []
        for t in stride(from: 0.0, to: 10, by: 0.5) { series.append((t, -75)) }
        for t in stride(from: 10.0, to: 20, by: 0.5) { series.append((t, -63)) }
        for t in stride(from: 20.0, to: 30, by: 0.5) { series.append((t, -50)) }
        for (t, rssi) in series {
            ranger.rangings(before: at(t)) { time, beacons in
                classes.append("\(Int(time.seconds(since: at(0)))) \(beacons[0].proximity.rawValue)")
            }
            ranger.record(advertisement(rssi: rssi, at: t))
        }
        ranger.rangings(before: at(60)) { time, beacons in
            classes.append("\(Int(time.seconds(since: at(0)))) \(beacons[0].proximity.rawValue)")
        }
        #expect(classes.first == "0 far")
        #expect(classes.contains("9 far"))
        #expect(classes.contains("15 near"))  // the window holds only −63 from 15 s on
        #expect(classes.contains("25 immediate"))
        #expect(classes.contains("35 unknown"))  // no sample within 5 s: RSSI 0, unknown
        #expect(classes.last == "39 unknown")  // forgotten 10 s after the last sighting (29.5 s)
        #expect(classes.count == 40)  // once a second from 0 to 39
    }

    @Test func rangingCoversOnlyBeaconsMatchingTheConstraints() {
        var ranger = BeaconRanger(constraints: [BeaconIdentity(uuid: trailUUID, major: 1)])
        ranger.record(advertisement(major: 1, minor: 4, at: 0))
        ranger.record(advertisement(major: 2, minor: 4, at: 0))
        ranger.record(advertisement(bikeUUID, at: 0))
        #expect(ranger.range(at: at(0)).map(\.beacon) == [BeaconKey(uuid: trailUUID, major: 1, minor: 4)])
    }

    @Test func nearestFirstAndTheRecordShape() throws {
        var ranger = BeaconRanger()
        ranger.record(advertisement(minor: 1, rssi: -80, at: 0))
        ranger.record(advertisement(minor: 2, rssi: -55, at: 0))
        ranger.record(advertisement(minor: 3, rssi: -70, power: 0, at: 0))
        let ranged = ranger.range(at: at(0))
        #expect(ranged.map(\.beacon.minor) == [2, 1, 3])
        let record = BeaconRecords.ranging(time: at(0), beacons: ranged)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(record.utf8)) as? [String: Any])
        let beacons = try #require(object["beacons"] as? [[String: Any]])
        #expect(object["kind"] as? String == "ranging")
        #expect(beacons[0]["distance"] as? Double == 0.63)
        #expect(beacons[0]["proximity"] as? String == "near")
        #expect(beacons[2]["distance"] is NSNull)
        #expect(beacons[2]["proximity"] as? String == "unknown")
    }
}
