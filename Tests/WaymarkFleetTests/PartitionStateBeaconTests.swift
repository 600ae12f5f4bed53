import Testing
import WaymarkBeacons
import WaymarkCore
import WaymarkPipeline
import WaymarkRegions

@testable import WaymarkFleet

/// Beacon regions in a fleet (docs/fleet.md): a device's sightings from the bus run through its
/// beacon monitoring as in the single daemon — an entry at the first sighting, an exit once the
/// device's own time has passed the region's exit timeout — and the saved state keeps the latest
/// sighting, so the next owner of the partition times the exit from it.
@Suite struct PartitionStateBeaconTests {
    static let uuid = BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!
    static let start = Timestamp(nanosecondsSince1970: 1_780_000_000_000_000_000)
    static let door = Region(
        identifier: "door", shape: .beacon(BeaconIdentity(uuid: uuid, major: 1, minor: 2)), options: RegionOptions(exitTimeout: 30))

    static func sighting(_ sequence: UInt64, at seconds: Double) -> PartitionState.Input {
        let advertisement = BeaconAdvertisement(time: start.adding(seconds: seconds), uuid: uuid, major: 1, minor: 2, measuredPower: 0, rssi: -60)
        let payload = SightingPayload(device: "phone", advertisement: advertisement)
        return PartitionState.Input(sequence: sequence, payload: .sighting(device: payload.device, try! payload.advertisement()))
    }

    static func fix(_ sequence: UInt64, at seconds: Double) -> PartitionState.Input {
        let time = start.adding(seconds: seconds)
        let fix = Fix(time: time, coordinate: Coordinate(latitude: 47, longitude: 8), horizontalAccuracy: 5, mode: .threeD)
        return PartitionState.Input(sequence: sequence, payload: FixPayload(device: "phone", fix: fix, time: time))
    }

    @Test func sightingsEnterAndTheDevicesOwnTimeExits() throws {
        var state = PartitionState(monitors: RegionMonitors([Self.door]), regionsVersion: 1)
        state.admit("phone", from: DeviceResume(states: SavedRegionStates([]), lastSequence: 0))
        let entered = state.apply([Self.sighting(1, at: 0), Self.sighting(2, at: 12)])
        #expect(entered.events.map(\.kind) == ["beacon"])
        #expect(entered.events.first?.record.contains(#""transition":"enter""#) == true)
        #expect(entered.states["phone"]?["door"]?.lastSeen != nil, "the latest sighting is saved for the next owner")
        #expect(entered.lastSequence["phone"] == 2)

        let quiet = state.apply([Self.fix(3, at: 30)])
        #expect(quiet.events.isEmpty, "30 s after the first sighting, 18 s after the last: still inside")
        let left = state.apply([Self.fix(4, at: 50)])
        #expect(left.events.map(\.kind) == ["beacon"])
        #expect(left.events.first?.record.contains(#""transition":"exit""#) == true)
        #expect(state.apply([Self.sighting(4, at: 13)]).events.isEmpty, "a redelivered sighting is not run again")
    }

    @Test func aSightingSurvivesTheBusBitForBit() throws {
        let advertisement = BeaconAdvertisement(time: Self.start, uuid: Self.uuid, major: 7, minor: 65535, measuredPower: -59, rssi: -128)
        let payload = try SightingPayload.decode(SightingPayload(device: "a.b", advertisement: advertisement).encoded())
        #expect(payload.device == "a.b")
        #expect(try payload.advertisement() == advertisement)
        var broken = payload
        broken.uuid = "not-a-uuid"
        #expect(throws: SightingPayload.Problem.self) { try broken.advertisement() }
    }
}
