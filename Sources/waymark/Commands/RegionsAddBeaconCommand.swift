import ArgumentParser
import WaymarkCore
import WaymarkGeoJSON
import WaymarkRegions

extension RegionsCommand {
    /// `waymark regions add-beacon ID --uuid U [--major M] [--minor N]`: a beacon region, made as
    /// the GeoJSON feature a file would hold, so it goes through the same decoder, store and API.
    struct AddBeacon: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add-beacon",
            abstract: "Add a beacon region: an iBeacon UUID with an optional major and minor (absent: any).",
            discussion: """
                The same as importing the GeoJSON feature {"type":"Feature","id":ID,"geometry":null,\
                "properties":{"beacon":{"uuid":U,"major":M,"minor":N}}}. Entry on the first matching \
                advertisement, exit after --exit-timeout seconds (default 30) without one.
                """)

        @Argument(help: "The region's identifier.")
        var identifier: String

        @Option(help: "The iBeacon proximity UUID, 8-4-4-4-12 hexadecimal digits.")
        var uuid: String

        @Option(help: "Major, 0…65535 (default: any).")
        var major: Int?

        @Option(help: "Minor, 0…65535 (default: any).")
        var minor: Int?

        @Option(name: .customLong("exit-timeout"), help: "Seconds without a matching advertisement before an exit (default 30).")
        var exitTimeout: Double?

        @Flag(name: .customLong("no-notify-entry"), help: "Do not report entries (the state still changes).")
        var noNotifyEntry = false

        @Flag(name: .customLong("no-notify-exit"), help: "Do not report exits (the state still changes).")
        var noNotifyExit = false

        @Flag(help: "Replace a region with this identifier (default: an error).")
        var replace = false

        @OptionGroup var store: StoreOptions

        func validate() throws {
            if let problem = RegionLimits.problem(withIdentifier: identifier) { throw ValidationError(problem) }
            if BeaconUUID(uuid) == nil {
                throw ValidationError(
                    "--uuid must be 32 hexadecimal digits grouped 8-4-4-4-12 (e.g. E2C56DB5-DFFB-48D2-B060-D0F5A71096E0), got '\(uuid)'")
            }
            for (name, value) in [("--major", major), ("--minor", minor)] {
                if let value, !(0...65535).contains(value) { throw ValidationError("\(name) must be 0…65535, got \(value)") }
            }
            if let exitTimeout, !(exitTimeout.isFinite && exitTimeout > 0) {
                throw ValidationError("--exit-timeout must be a positive number of seconds")
            }
        }

        /// The feature, as a file would hold it.
        var feature: String {
            var beacon = JSONObjectWriter()
            beacon.add("uuid", BeaconUUID(uuid)?.description ?? uuid)
            if let major { beacon.add("major", major) }
            if let minor { beacon.add("minor", minor) }
            var properties = JSONObjectWriter()
            properties.addRaw("beacon", beacon.object)
            if noNotifyEntry { properties.add(RegionOptions.Key.notifyOnEntry, false) }
            if noNotifyExit { properties.add(RegionOptions.Key.notifyOnExit, false) }
            if let exitTimeout { properties.add(RegionOptions.Key.exitTimeout, exitTimeout) }
            var json = JSONObjectWriter()
            json.add("type", "Feature")
            json.add("id", identifier)
            json.addRaw("geometry", "null")
            json.addRaw("properties", properties.object)
            return json.object
        }

        func run() throws {
            try RegionsCommand.add(feature, named: "beacon region \(identifier)", by: "add-beacon", replace: replace, store: store)
        }
    }
}
