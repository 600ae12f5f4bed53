import ArgumentParser
import Foundation
import WaymarkAPI
import WaymarkCore
import WaymarkDaemon
import WaymarkStore

extension EnergyReport.Grouping: ExpressibleByArgument {}

struct PowerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "power",
        abstract: "Energy the radios used, by radio or by handler, with the profile that priced it.",
        discussion: """
            Asks the running daemon when one answers (GET /v1/power: its ledger is stored first, so \
            the report is current), else reads the daemon's database. Time is kept in hourly \
            buckets: --since includes the whole hour holding it. Energy = time in a state × its \
            current × voltage (× the scan duty cycle); shared radio time is split evenly across \
            the parties that needed it (docs/semantics.md §4, docs/configuration.md).
            """)

    @Option(help: "Only hours ending after this RFC 3339 time.")
    var since: String?

    @Option(help: "Group rows by radio or by handler (default: radio).")
    var by: EnergyReport.Grouping = .radio

    @Flag(help: "Print the report as one JSON object (as GET /v1/power answers).")
    var json = false

    @OptionGroup var store: RegionsCommand.StoreOptions

    func run() throws {
        let since = try since.map { try HistoryCommand.time($0, option: "--since") }
        let report: EnergyReport
        if let client = try store.daemon() {
            var path = "/v1/power?by=\(by.rawValue)"
            if let since { path += "&since=" + (since.rfc3339.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? since.rfc3339) }
            let body = try RegionsCommand.call(client, "GET", path)
            if json {
                print(body)
                return
            }
            report = try EnergyReport(json: body)
        } else {
            let path = store.database ?? DefaultLocations.database(system: false)
            guard FileManager.default.fileExists(atPath: path) else {
                throw CommandError("no database at \(path): nothing has been recorded there (start `waymark serve`, or give --db)")
            }
            let database = try WaymarkStore(path: path, logger: CommandLogging.logger("waymark.power"))
            report = EnergyReport(buckets: try database.energy(since: since), since: since, by: by)
        }
        print(json ? report.json : report.text, terminator: json ? "\n" : "")
    }
}
