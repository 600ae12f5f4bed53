import Testing
import WaymarkHandlers
import WaymarkRegions

@testable import WaymarkDaemon

/// A handler's ranging follows its beacon regions when they are re-imported or removed, not only
/// when handlers are reloaded.
@Suite struct HandlerRouterRangingTests {
    static let trail = BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!
    static func door(major: UInt16) -> Region {
        Region(identifier: "door", shape: .beacon(BeaconIdentity(uuid: trail, major: major)))
    }
    static let ranging = HandlerRegistration(
        name: "ranger", executable: "/bin/true", subscription: HandlerSubscription(ranging: ["door"]))

    @Test func rangersFollowTheBeaconRegionsAsTheyChange() {
        var router = HandlerRouter([Self.ranging], beaconRegions: [Self.door(major: 1)])
        #expect(router.rangedIdentities == ["ranger": [BeaconIdentity(uuid: Self.trail, major: 1)]])

        router.beaconRegionsChanged([Self.door(major: 2)])  // replaced with another identity
        #expect(router.rangedIdentities == ["ranger": [BeaconIdentity(uuid: Self.trail, major: 2)]])

        router.beaconRegionsChanged([])  // removed
        #expect(router.rangedIdentities.isEmpty)

        router.beaconRegionsChanged([Self.door(major: 3)])  // imported again
        #expect(router.rangedIdentities == ["ranger": [BeaconIdentity(uuid: Self.trail, major: 3)]])
    }

    @Test func reloadingHandlersAlsoPicksUpTheCurrentIdentities() {
        var router = HandlerRouter([Self.ranging], beaconRegions: [Self.door(major: 1)])
        router.update([Self.ranging], beaconRegions: [Self.door(major: 5)])
        #expect(router.rangedIdentities == ["ranger": [BeaconIdentity(uuid: Self.trail, major: 5)]])
    }
}

extension HandlerRouter {
    /// What each route ranges, by handler.
    fileprivate var rangedIdentities: [String: [BeaconIdentity]] {
        Dictionary(uniqueKeysWithValues: routes.compactMap { route in route.ranger.map { (route.name, $0.constraints) } })
    }
}
