import ArgumentParser

/// `waymark fleet …`: a fleet's state and moving a single daemon into one (docs/fleet.md).
/// The nodes themselves run with `waymark serve --fleet`.
struct FleetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fleet",
        abstract: "Fleet mode on PostgreSQL/PostGIS and NATS JetStream: status, import (docs/fleet.md).",
        subcommands: [FleetStatusCommand.self, FleetImportCommand.self])
}
