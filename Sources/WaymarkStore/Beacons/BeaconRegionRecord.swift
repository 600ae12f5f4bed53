import GRDB
import WaymarkRegions

/// One row of `beacon_regions`. Select it with `BeaconRegionRecord.columns`.
struct BeaconRegionRecord: FetchableRecord {
    var identifier: String
    var uuid: String
    var major: Int?
    var minor: Int?
    var propertiesJSON: String?
    var options: RegionOptions

    /// Options are read from `properties` with `json_extract`, as for geographic regions.
    static let columns = "identifier, uuid, major, minor, properties, "
        + RegionRecord.optionColumns

    init(row: Row) {
        identifier = row["identifier"]
        uuid = row["uuid"]
        major = row["major"]
        minor = row["minor"]
        propertiesJSON = row["properties"]
        options = RegionRecord.options(from: row)
    }

    /// The region this row stores.
    func region() throws -> Region {
        guard let parsed = BeaconUUID(uuid) else {
            throw StoreError(
                code: .corruptRegion, message: "beacon region '\(identifier)': uuid '\(uuid)' is not a UUID",
                identifiers: [identifier])
        }
        let identity = BeaconIdentity(uuid: parsed, major: major.map(UInt16.init), minor: minor.map(UInt16.init))
        return Region(identifier: identifier, shape: .beacon(identity), propertiesJSON: propertiesJSON, options: options)
    }
}
