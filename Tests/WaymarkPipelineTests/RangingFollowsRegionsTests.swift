import Testing
import WaymarkBeacons
import WaymarkPipeline
import WaymarkRegions

/// A subscriber's ranging follows its beacon regions when they are re-imported or removed, not
/// only when subscribers are replaced.
@Suite struct RangingFollowsRegionsTests {
    static let trail = BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!
    static func door(major: UInt16) -> Region {
        Region(identifier: "door", shape: .beacon(BeaconIdentity(uuid: trail, major: major)))
    }
    static let ranger = Subscriber(id: .handler("ranger"), ranging: .regions(["door"]))

    static func replacing(_ pipeline: inout DevicePipeline, with regions: [Region]) {
        pipeline.replaceRegions(
            regionMonitor: RegionMonitor(regions: []), beaconMonitor: BeaconMonitor(regions: regions), saved: [])
    }

    @Test func rangersFollowTheBeaconRegionsAsTheyChange() {
        var pipeline = DevicePipeline(regions: [Self.door(major: 1)], subscribers: [Self.ranger])
        #expect(pipeline.rangedIdentities(of: .handler("ranger")) == [BeaconIdentity(uuid: Self.trail, major: 1)])

        Self.replacing(&pipeline, with: [Self.door(major: 2)])  // replaced with another identity
        #expect(pipeline.rangedIdentities(of: .handler("ranger")) == [BeaconIdentity(uuid: Self.trail, major: 2)])

        Self.replacing(&pipeline, with: [])  // removed
        #expect(pipeline.rangedIdentities(of: .handler("ranger")) == nil)

        Self.replacing(&pipeline, with: [Self.door(major: 3)])  // imported again
        #expect(pipeline.rangedIdentities(of: .handler("ranger")) == [BeaconIdentity(uuid: Self.trail, major: 3)])
    }

    @Test func newSubscribersRangeTheCurrentIdentities() {
        var pipeline = DevicePipeline(regions: [Self.door(major: 1)])
        Self.replacing(&pipeline, with: [Self.door(major: 5)])
        pipeline.replaceSubscribers([Self.ranger])
        #expect(pipeline.rangedIdentities(of: .handler("ranger")) == [BeaconIdentity(uuid: Self.trail, major: 5)])
    }
}
