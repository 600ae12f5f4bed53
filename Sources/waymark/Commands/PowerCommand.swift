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
            the parties that needed it (docs/semantics.md §4, docs/configuration.md). With --device, \
            a phone's estimate instead: what its tracking cost it by radio (GNSS in move mode, \
            network fixes, each report's radio tail), its hours in move and significant mode, and \
            joules an hour (docs/semantics.md §4.4).
            """)

    @Option(help: "Only hours ending after this RFC 3339 time.")
    var since: String?

    @Option(help: "Group rows by radio or by handler (default: radio).")
    var by: EnergyReport.Grouping = .radio

    @Option(help: "A network device: its phone energy estimate instead of the daemon's own radios.")
    var device: String?

    @Flag(help: "Print the report as one JSON object (as GET /v1/power answers).")
    var json = false

    @OptionGroup var store: RegionsCommand.StoreOptions

    func run() throws {
        let since = try since.map { try HistoryCommand.time($0, option: "--since") }
        let sinceParameter = since.map { "&since=" + ($0.rfc3339.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0.rfc3339) } ?? ""
        if let device {
            guard by == .radio else { throw CommandError("--by groups the daemon's own ledger; a device's estimate is by radio and mode") }
            let name = device.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? device
            try show("/v1/power?device=" + name + sinceParameter, PhoneEnergyReport.init(json:), \.json, \.text) { database, path in
                // A device the database does not know is an error naming it, as the daemon's 404 is.
                guard try database.device(named: device) != nil else {
                    throw CommandError("no device \"\(device)\" in \(path); `waymark devices list` shows the known ones")
                }
                return PhoneEnergyReport(device: device, buckets: try database.phoneEnergy(device: device, since: since), since: since)
            }
        } else {
            try show("/v1/power?by=\(by.rawValue)" + sinceParameter, EnergyReport.init(json:), \.json, \.text) { database, _ in
                EnergyReport(buckets: try database.energy(since: since), since: since, by: by)
            }
        }
    }

    /// Prints the daemon's answer to `path` when one answers (its ledger stored first, so the
    /// report is current), else the report `local` makes from the database.
    private func show<Report>(
        _ path: String, _ decode: (String) throws -> Report, _ json: KeyPath<Report, String>, _ text: KeyPath<Report, String>,
        local: (WaymarkStore, String) throws -> Report
    ) throws {
        let report: Report
        if let client = try store.daemon() {
            let body = try RegionsCommand.call(client, "GET", path)
            if self.json {
                print(body)
                return
            }
            report = try decode(body)
        } else {
            let path = store.database ?? DefaultLocations.database(system: false)
            guard FileManager.default.fileExists(atPath: path) else {
                throw CommandError("no database at \(path): nothing has been recorded there (start `waymark serve`, or give --db)")
            }
            report = try local(try WaymarkStore(path: path, logger: CommandLogging.logger("waymark.power")), path)
        }
        print(self.json ? report[keyPath: json] : report[keyPath: text], terminator: self.json ? "\n" : "")
    }
}
