import ArgumentParser
import Foundation
import WaymarkFleet

struct FleetStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show the fleet's nodes, who owns each partition and how many fixes wait in it.")

    @OptionGroup var connection: FleetConnectionOptions

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    func run() async throws {
        let address = try connection.postgresAddress()
        let nats = try connection.natsURL()
        let logger = CommandLogging.logger("waymark.fleet")
        let status = try await FleetDatabase.withDatabase(address, logger: logger) { database in
            try await FleetStatus.read(database: database, natsURL: nats)
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(status), as: UTF8.self))
        } else {
            print(status.text, terminator: "")
        }
    }
}
