import ArgumentParser
import Foundation
import WaymarkCore
import WaymarkDaemon
import WaymarkDevices
import WaymarkServices
import WaymarkStore
import WaymarkTimelineJob

/// `waymark timeline`: a device's day as stays and trips a person reads (docs/timeline/cli.md).
struct TimelineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timeline",
        abstract: "Print a device's stays and trips, with place names and local times.",
        discussion: """
            Reads the daemon's SpatiaLite database directly (safe while the daemon runs: WAL). \
            Without --day or --from/--to, the latest day the device has history for. Times are the \
            place's local time. --compare checks the stays against reported visits (Google's, or \
            your own labels in Google's shape) that `waymark import` brought in.
            """)

    @Option(help: "Whose history: a phone's name as in `waymark devices list`, or local for the gpsd receiver (docs/devices.md).")
    var device: String = "local"

    @Option(help: "A local day, YYYY-MM-DD, in the time zone where the device was (default: the latest day with history).")
    var day: String?

    @Option(help: "With --to: from this RFC 3339 time, instead of a day.")
    var from: String?

    @Option(help: "With --from: until this RFC 3339 time (exclusive).")
    var to: String?

    @Flag(help: "Print the timeline (or with --compare, the comparison) as one JSON object.")
    var json = false

    @Flag(help: "Compare the stays with the reported visits `waymark import` stored (precision, recall, F1, time errors).")
    var compare = false

    @Option(name: .customLong("db"), help: "SpatiaLite database (default: the daemon's, $XDG_DATA_HOME/waymark/waymark.sqlite).")
    var database: String?

    private var rangeOptions: TimelineRangeOptions { TimelineRangeOptions(device: device, day: day, from: from, to: to) }

    func validate() throws { try rangeOptions.validate() }

    func run() async throws {
        let path = database ?? DefaultLocations.database(system: false)
        guard FileManager.default.fileExists(atPath: path) else {
            throw CommandError("no database at \(path): nothing has been recorded there (start `waymark serve`, or give --db)")
        }
        let job = try await TimelineRangeOptions.job(database: path, logger: CommandLogging.logger("waymark.timeline"))
        let timeline = try await rangeOptions.timeline(job)
        if compare {
            try await printComparison(timeline, store: job.store)
        } else if json {
            print(timeline.json)
        } else if timeline.entries.isEmpty {
            print("no stays or trips for \(device) from \(timeline.from.rfc3339) to \(timeline.to.rfc3339)")
        } else {
            for line in TimelineText.lines(timeline) { print(line) }
        }
    }

    private func printComparison(_ timeline: Timeline, store: WaymarkStore) async throws {
        let reported = try await ReportedStay.read(from: store, device: device, from: timeline.from, to: timeline.to)
        guard !reported.isEmpty else {
            throw CommandError(
                "--compare: \(device) has no reported visits from \(timeline.from.rfc3339) to \(timeline.to.rfc3339): import Google's "
                    + "Semantic Location History (or labels in its shape) first, `waymark import FILE --device \(device)`")
        }
        var stays: [TimelineStay] = []
        var labels: [Timestamp: String] = [:]
        for case .stay(let stay, let place) in timeline.entries {
            stays.append(stay)
            labels[stay.arrival] = place.label
        }
        let lastIsStay = if case .stay = timeline.entries.last { true } else { false }
        let comparison = StayComparison(stays: stays, reported: reported, openStay: timeline.lastIsOpen && lastIsStay)
        if json {
            print(comparison.json(device: device, from: timeline.from, to: timeline.to, labels: labels))
        } else {
            for line in comparison.lines(timeZone: timeline.timeZone, labels: labels) { print(line) }
        }
    }
}
