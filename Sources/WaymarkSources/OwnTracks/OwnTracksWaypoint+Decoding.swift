import WaymarkCore
import WaymarkGeoJSON
import WaymarkRegions

extension OwnTracksWaypoint {
    /// Decodes a `waypoint` object: `desc` and `tst` are required; `lat` and `lon` come
    /// together; `major` and `minor` need a `uuid`.
    init(reading object: OwnTracksObjectReader) throws(OwnTracksError) {
        self.init(
            name: try object.requiredString("desc", why: "a waypoint needs its region's name"),
            center: try object.optionalCoordinate(),
            radius: try object.number("rad", .metres),
            created: try object.requiredTime("tst", why: "the app identifies a waypoint by its creation time"),
            regionID: try object.string("rid"),
            beacon: try object.beaconIdentity())
    }
}

extension OwnTracksObjectReader {
    /// `uuid` with optional `major` and `minor`, as a waypoint describes a beacon region.
    func beaconIdentity() throws(OwnTracksError) -> BeaconIdentity? {
        let major = try integer("major", .beaconNumber).map { UInt16($0) }
        let minor = try integer("minor", .beaconNumber).map { UInt16($0) }
        guard let uuidNode = try optional("uuid") else {
            if major != nil || minor != nil {
                throw body.error(
                    .missingMember, field("uuid"), "missing (major and minor need the beacon's uuid)", at: node.start)
            }
            return nil
        }
        return BeaconIdentity(uuid: try beaconUUID(uuidNode), major: major, minor: minor)
    }

    /// The value of `uuid`, in the 8-4-4-4-12 hexadecimal form.
    func beaconUUID(_ node: JSONNode) throws(OwnTracksError) -> BeaconUUID {
        guard case .string(let text) = node.value else {
            throw fail(.wrongType, "uuid", "expected a string, got \(node.value.typeName)", at: node)
        }
        guard let uuid = BeaconUUID(text) else {
            throw fail(
                .invalidValue, "uuid", "expected a UUID like E2C56DB5-DFFB-48D2-B060-D0F5A71096E0, got \(body.text(of: node))",
                at: node)
        }
        return uuid
    }
}
