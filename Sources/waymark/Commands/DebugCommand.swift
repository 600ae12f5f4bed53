import ArgumentParser
import WaymarkExport
import WaymarkStore

/// `waymark debug …`: drills for tests, hidden from help.
struct DebugCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "debug",
        abstract: "Drills used by the test suite.",
        shouldDisplay: false,
        subcommands: [WriteFixes.self])

    /// Records fixes one per transaction, printing each committed id (the SIGKILL durability test).
    struct WriteFixes: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "write-fixes", abstract: "Record N fixes, printing each committed row id.")

        @Option(name: .customLong("db"), help: "SpatiaLite database to write.")
        var database: String

        @Option(help: "How many fixes to record.")
        var count: Int

        func run() throws {
            try HistoryWriterDrill.run(
                dbPath: database, count: count, output: FileSink.standardOutput(),
                logger: CommandLogging.logger("waymark.debug"))
        }
    }
}
