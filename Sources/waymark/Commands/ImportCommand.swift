import ArgumentParser
import Foundation
import WaymarkCore
import WaymarkDaemon
import WaymarkDevices
import WaymarkImport
import WaymarkImportJob
import WaymarkPipeline
import WaymarkStore

/// `waymark import PATH… --device NAME`: history files into a device's history (docs/import.md).
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import location history (Google Takeout, GPX, KML/KMZ, GeoJSON, FIT, TCX, CSV, OwnTracks, NMEA, gpsd) into a device's history.",
        discussion: """
            PATHs are files, zip/KMZ/gzip archives, or folders; each file's format is recognised from \
            its content. A fix already in the device's history (same time and position) is not added \
            again, and a file imported whole before is not read again, so importing an overlapping \
            export, or the same command after an interruption, adds only what is missing. The new fixes \
            then run through the device's regions and the configured subscriptions in time order: their \
            events are stored as imported history and not delivered to outputs unless --deliver. \
            Writes to the database directly (safe while the daemon runs: WAL). Exit status: 0 when every \
            file was read to the end, 1 when a file could not be (what was read before is kept).
            """)

    @Argument(help: "Files, archives or folders to import.")
    var paths: [String]

    @Option(help: "The device whose history this is (a phone's name as in `waymark devices list`, or 'local' for the receiver).")
    var device: String

    @Option(name: .customLong("db"), help: "SpatiaLite database (default: the daemon's, $XDG_DATA_HOME/waymark/waymark.sqlite).")
    var database: String?

    @Option(help: "Configuration file whose pipeline settings and subscriptions evaluate the history (default: the daemon's, when it exists).")
    var config: String?

    @Flag(help: "Print progress and the outcome as JSON Lines on standard output instead of a progress bar.")
    var json = false

    @Flag(help: "Deliver the events the import computes to outputs (webhooks, MQTT, Home Assistant); by default the past is stored only.")
    var deliver = false

    @Flag(help: "Read files again that an earlier import read whole (their fixes are still not added twice).")
    var reread = false

    @Option(help: "CSV columns when the header's names are not recognised, e.g. lat=Y,lon=X,time=when.")
    var columns: String?

    func validate() throws {
        if let problem = DeviceName.problem(with: device) { throw ValidationError("--device: \(problem)") }
        if paths.isEmpty { throw ValidationError("give at least one file, archive or folder to import") }
    }

    func run() throws {
        let path = database ?? DefaultLocations.database(system: false)
        try PrivateFolder.create(folder(of: path))
        let logger = CommandLogging.logger("waymark.import")
        let store = try WaymarkStore(path: path, logger: logger)
        var configuration = DaemonConfiguration(database: path, socketPath: DefaultLocations.socket(system: false))
        let file = config ?? DefaultLocations.configuration(system: false)
        if config != nil || FileManager.default.fileExists(atPath: file) {
            configuration = try DaemonConfiguration.load(yamlFile: file, over: configuration)
        }
        if let days = configuration.retentionDays {
            writeStandardError("note: store.retention_days is \(days): the daemon deletes history older than that, imported history included\n")
        }
        let pipeline = DevicePipeline(
            regions: try store.regions(), subscribers: configuration.subscriptions.map(\.subscriber),
            settings: configuration.pipeline)
        let request = ImportRequest(paths: paths, device: device, deliver: deliver, reread: reread, columns: columns)
        var bar = ImportProgressBar(json: json, terminal: Terminal.standardErrorIsTerminal)
        let outcome: ImportOutcome
        do {
            outcome = try HistoryImporter(store: store, logger: logger).run(request, pipeline: pipeline) { bar.show($0) }
        } catch let error as ImportError {
            bar.end()
            throw CommandError("\(error)")
        }
        bar.end()
        if json {
            print(outcome.json)
        } else {
            for skipped in outcome.skipped { print("skipped \(skipped.name): \(skipped.reason)") }
            for failure in outcome.failures { print("stopped: \(failure)") }
            print(outcome.summary + " (import \(outcome.record.id)\(outcome.resumed ? ", resumed" : ""))")
        }
        if !outcome.failures.isEmpty { throw ExitCode(1) }
    }
}
