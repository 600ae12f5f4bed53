import WaymarkRegions

extension DecodingContext {
    /// The property that makes a feature a beacon region.
    static let beaconKey = "beacon"

    /// `properties.beacon`: `{"uuid": "E2C56DB5-…", "major": 0…65535, "minor": 0…65535}`, major
    /// and minor optional (absent or null: any). The feature's geometry must be null: a beacon
    /// region has no place on the map. Called with `path` at the feature's geometry.
    mutating func beaconIdentity(_ node: JSONNode, geometry: JSONNode) throws(GeoJSONError) -> BeaconIdentity {
        let saved = path
        defer { path = saved }
        guard geometry.isNull else {
            throw fail(
                .invalidBeacon,
                "a beacon region (properties.beacon) has no geometry: set \"geometry\": null", geometry)
        }
        path.removeLast()  // back to the feature
        path.append(.key("properties"))
        path.append(.key(Self.beaconKey))
        guard case .object(let members) = node.value else {
            throw fail(
                .invalidBeacon,
                "properties.beacon is a \(node.value.typeName); expected an object {\"uuid\": …, \"major\": …, \"minor\": …}",
                node)
        }
        for member in members where !["uuid", "major", "minor"].contains(member.key) {
            throw fail(
                .invalidBeacon, "unknown member \"\(member.key)\" in properties.beacon; expected uuid, major and minor",
                member.value, extra: .key(member.key))
        }
        guard let uuidNode = node.member("uuid"), !uuidNode.isNull else {
            throw fail(.invalidBeacon, "properties.beacon needs a \"uuid\" (the iBeacon proximity UUID)", node)
        }
        guard case .string(let text) = uuidNode.value, let uuid = BeaconUUID(text) else {
            let found = if case .string(let text) = uuidNode.value { "\"\(text)\"" } else { "a \(uuidNode.value.typeName)" }
            throw fail(
                .invalidBeacon,
                "the uuid must be a string of 32 hexadecimal digits grouped 8-4-4-4-12 "
                    + "(e.g. E2C56DB5-DFFB-48D2-B060-D0F5A71096E0); found \(found)",
                uuidNode, extra: .key("uuid"))
        }
        return BeaconIdentity(uuid: uuid, major: try beaconNumber(node, "major"), minor: try beaconNumber(node, "minor"))
    }

    /// A major or minor: an integer 0…65535, or nil when absent or null.
    private func beaconNumber(_ beacon: JSONNode, _ key: String) throws(GeoJSONError) -> UInt16? {
        guard let node = beacon.member(key), !node.isNull else { return nil }
        guard case .number(let value) = node.value, value == value.rounded(), value >= 0, value <= 65535 else {
            let found = if case .number(let value) = node.value { formatNumber(value) } else { "a \(node.value.typeName)" }
            throw fail(.invalidBeacon, "the \(key) must be an integer 0…65535 (or absent for any); found \(found)", node, extra: .key(key))
        }
        return UInt16(value)
    }
}
