import ArgumentParser
import Foundation
import WaymarkFleet
import WaymarkGeoJSON

struct FleetImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Move a single daemon's regions, devices, outputs and history into the fleet, or import GeoJSON regions.",
        discussion: """
            --db copies the SpatiaLite store's regions, devices (with their secrets' hashes: \
            devices go on sending as before), outputs (output nodes deliver the events from then \
            on; the history is not sent again) and history (fixes and events; importing again \
            stores nothing twice). --regions imports GeoJSON files as `waymark regions import` \
            does. Workers reload the regions within a second.
            """)

    @OptionGroup var connection: FleetConnectionOptions

    @Option(name: .customLong("db"), help: "A single daemon's SpatiaLite store.")
    var database: String?

    @Option(name: .long, parsing: .upToNextOption, help: "GeoJSON region files or folders.")
    var regions: [String] = []

    @Option(name: .customLong("id-property"), help: "With --regions: the feature property naming a region.")
    var idProperty: String?

    func validate() throws {
        if database == nil && regions.isEmpty { throw ValidationError("nothing to import: give --db FILE or --regions FILE…") }
    }

    func run() async throws {
        let address = try connection.postgresAddress()
        let logger = CommandLogging.logger("waymark.fleet")
        if let database, !FileManager.default.fileExists(atPath: database) {
            throw CommandError("\(database): no such file")
        }
        let decoded = try regions.isEmpty ? [] : GeoJSONRegionLoader.load(paths: regions, idProperty: idProperty)
        try await FleetDatabase.withDatabase(address, logger: logger) { fleet in
            if let database {
                let report = try await FleetImport.importStore(at: database, into: fleet, logger: logger)
                print(
                    "imported \(report.regions) regions, \(report.devices) devices and \(report.outputs) outputs from \(database), "
                        + "with \(report.fixes) fixes and \(report.events) events of history")
            }
            if !decoded.isEmpty {
                let version = try await fleet.importRegions(decoded)
                print("imported \(decoded.count) regions (regions version \(version))")
            }
        }
    }
}
