import WaymarkCore

extension OwnTracksBeacon {
    /// Decodes a `beacon` object: `uuid`, `major`, `minor` and `tst` are required. A negative
    /// `acc` is Core Location's "distance unknown" (the iOS app copies `CLBeacon.accuracy`,
    /// which is -1 then), so it becomes `nil` rather than an error.
    init(reading object: OwnTracksObjectReader) throws(OwnTracksError) {
        let why = "a beacon is identified by uuid, major and minor"
        let uuid = try object.beaconUUID(try object.required("uuid", why: why))
        let accuracy = try object.number("acc", .beaconDistance)
        self.init(
            uuid: uuid,
            major: UInt16(try object.requiredInteger("major", .beaconNumber, why: why)),
            minor: UInt16(try object.requiredInteger("minor", .beaconNumber, why: why)),
            time: try object.requiredTime("tst", why: "a beacon sighting needs a time"),
            accuracy: accuracy.flatMap { $0 < 0 ? nil : $0 },
            rssi: try object.integer("rssi", .whole),
            proximity: try object.integer("prox", .proximity),
            regionName: try object.string("desc"),
            trackerID: try object.string("tid"))
    }
}
