import ArgumentParser
import Foundation
import WaymarkCore
import WaymarkDaemon
import WaymarkDevices
import WaymarkPipeline
import WaymarkStore

/// `waymark explain --device NAME --from T --to T`: a phone's own reported transitions beside
/// the server's (issue 38, item 5; docs/devices.md, "Phone and server side by side").
struct ExplainDisagreementOptions: ParsableArguments {
    /// Follows the event mode's discussion in `waymark explain --help`, after a blank line.
    static let discussion = """

        With --device NAME --from T --to T instead of EVENT: pairs the transitions an OwnTracks \
        phone reported itself (reportedRegion) with the server's region and beacon transitions of \
        the same region within --tolerance seconds (default 300), and prints each one without a \
        partner as {"kind":"disagreement","side":"phone"|"server","reason":…,"region":…,\
        "transition":…,"time":…,"id":…}, then a summary line. Reasons: serverLater, \
        serverEarlier (the server made the same transition outside the tolerance), unknownRegion \
        (the server has no such region), serverHeld (the server kept its state), notReported \
        (the phone did not report the server's transition). Only regions the phone reported are \
        compared. Reads the database directly.
        """

    @Option(help: "Compare this device's (an OwnTracks phone's) reported transitions with the server's.")
    var device: String?

    @Option(help: "With --device: the first RFC 3339 time compared (inclusive).")
    var from: String?

    @Option(help: "With --device: the RFC 3339 time the comparison ends (exclusive).")
    var to: String?

    @Option(help: "With --device: seconds the two sides' same transition may be apart and agree (default 300).")
    var tolerance: Double?

    func validate() throws {
        guard let device else {
            if from != nil || to != nil || tolerance != nil {
                throw ValidationError("--from, --to and --tolerance go with --device")
            }
            return
        }
        if let problem = DeviceName.problem(with: device) { throw ValidationError("--device: \(problem)") }
        guard from != nil, to != nil else { throw ValidationError("--device needs --from and --to") }
        if let tolerance, !(tolerance.isFinite && tolerance >= 0 && tolerance <= 86_400) {
            throw ValidationError("--tolerance must be 0 to 86400 seconds, got \(tolerance)")
        }
    }

    /// Prints the disagreements and the summary, reading the database at `path`.
    func run(database path: String) throws {
        guard let device, let fromText = from, let toText = to else { return }
        let from = try HistoryCommand.time(fromText, option: "--from")
        let to = try HistoryCommand.time(toText, option: "--to")
        guard from < to else { throw ValidationError("--from must be before --to") }
        guard FileManager.default.fileExists(atPath: path) else {
            throw CommandError("no database at \(path): nothing has been recorded there (start `waymark serve`, or give --db)")
        }
        let store = try WaymarkStore(path: path, logger: CommandLogging.logger("waymark.explain"))
        let tolerance = tolerance ?? ReportedTransitionMatcher.defaultTolerance
        let comparison = try store.transitionComparison(device: device, from: from, to: to, tolerance: tolerance)
        for disagreement in comparison.disagreements { print(disagreement.record) }
        print(comparison.summary(device: device, from: from, to: to, tolerance: tolerance))
    }
}
