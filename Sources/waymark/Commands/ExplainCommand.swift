import ArgumentParser
import Foundation
import WaymarkAPI
import WaymarkCore
import WaymarkDaemon
import WaymarkStore

struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Why a stored region or beacon event happened: recomputed from the stored fixes (docs/explain.md).",
        discussion: """
            Asks the running daemon when one answers (GET /v1/events/ID/explain, with its region \
            configuration); with --db or --config, or without a daemon, reads the database with the \
            configuration file's regions.crossing_gap. \
            The event is recomputed with the daemon's pipeline from the device's stored fixes; \
            "reproduced: NO" says when they do not give it again. EVENT is the id of an event in \
            GET /v1/events, the live stream or the web page's event list. Exit status 1 when there \
            is no such event.

            """ + ExplainDisagreementOptions.discussion)

    @Argument(help: "The event's id (or --device, below).")
    var event: Int64?

    @OptionGroup var disagreements: ExplainDisagreementOptions

    @Flag(help: "Print the API's JSON instead of text.")
    var json = false

    @OptionGroup var store: RegionsCommand.StoreOptions

    @Option(help: "Configuration file for regions.crossing_gap when reading the database (default: $XDG_CONFIG_HOME/waymark/waymark.yaml if it exists).")
    var config: String?

    func validate() throws {
        if disagreements.device != nil {
            guard event == nil else { throw ValidationError("give EVENT or --device, not both") }
            return
        }
        guard let event else { throw ValidationError("give an EVENT id, or --device NAME --from TIME --to TIME") }
        guard event > 0 else { throw ValidationError("EVENT must be a positive event id, got \(event)") }
    }

    func run() throws {
        if disagreements.device != nil {
            return try disagreements.run(database: store.database ?? DefaultLocations.database(system: false))
        }
        guard let event else { return }
        if config == nil, let client = try store.daemon() {
            let response = try client.request(method: "GET", path: "/v1/events/\(event)/explain?format=\(json ? "json" : "text")")
            let text = String(decoding: response.body, as: UTF8.self)
            if response.status == 404 { throw CommandError("no event \(event) in the daemon's history (unknown, or pruned)") }
            guard response.status == 200 else { throw CommandError("the daemon answered \(response.status): \(text)") }
            print(text, terminator: text.hasSuffix("\n") ? "" : "\n")
            return
        }
        let path = store.database ?? DefaultLocations.database(system: false)
        guard FileManager.default.fileExists(atPath: path) else {
            throw CommandError("no database at \(path): nothing has been recorded there (start `waymark serve`, or give --db)")
        }
        var configuration = DaemonConfiguration(database: path, socketPath: DefaultLocations.socket(system: false))
        let file = config ?? DefaultLocations.configuration(system: false)
        if config != nil || FileManager.default.fileExists(atPath: file) {
            configuration = try DaemonConfiguration.load(yamlFile: file, over: configuration)
        }
        let database = try WaymarkStore(path: path, logger: CommandLogging.logger("waymark.explain"))
        do {
            guard let explanation = try database.explainEvent(id: event, settings: configuration.pipeline) else {
                throw CommandError("no event \(event) in \(path) (unknown, or pruned)")
            }
            print(json ? explanation.json : explanation.text)
        } catch let error as ExplainError {
            throw CommandError(error.message)
        }
    }
}
