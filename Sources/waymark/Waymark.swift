import ArgumentParser

/// `waymark`: a location-tracking backend for Linux. Each subcommand parses its options and
/// calls into the libraries; nothing testable lives here.
@main
struct Waymark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "waymark",
        abstract: "Location services for Linux: GPS fixes in, region and location events out.",
        discussion: """
            Replays GPX tracks through the region engine, imports GeoJSON regions into a \
            SpatiaLite store, exports tracks and pictures, simulates tracks, and benchmarks the \
            engine. See README.md.
            """,
        version: "0.1.0",
        subcommands: [
            ReplayCommand.self, ServeCommand.self, StatusCommand.self, HistoryCommand.self, TimelineCommand.self, ImportCommand.self, ExplainCommand.self, PowerCommand.self, DebugCommand.self, RegionsCommand.self,
            HandlersCommand.self, DevicesCommand.self, OutputsCommand.self, SimulateCommand.self, ExportCommand.self, StatsCommand.self,
            FleetCommand.self, BenchCommand.self, PlacesCommand.self,
        ])
}
