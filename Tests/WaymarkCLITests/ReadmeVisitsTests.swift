import Foundation
import Testing
import WaymarkTestSupport

/// README's visits table is what `waymark replay --visits` finds on those shared tracks, row for
/// row: arrival, departure, centre (5 decimals) and uncertainty (whole metres).
@Suite struct ReadmeVisitsTests {
    struct Row: Equatable, CustomStringConvertible {
        var track: String
        var cells: [String]
        var description: String { "\(track): \(cells.joined(separator: " | "))" }
    }

    /// The table's rows; a row with an empty track cell continues the track above.
    static func table() throws -> [Row] {
        let readme = try String(contentsOf: ProjectPaths.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.components(separatedBy: "\n")
        let header = try #require(lines.firstIndex(of: "| track | arrival | departure | centre | uncertainty |"))
        var rows: [Row] = []
        for line in lines[(header + 2)...] {
            guard line.hasPrefix("|") else { break }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
            let track = cells[0].isEmpty ? try #require(rows.last).track : String(cells[0].prefix { $0 != " " })
            rows.append(Row(track: track, cells: Array(cells.dropFirst())))
        }
        return rows
    }

    @Test func theTableIsWhatReplayFinds() async throws {
        let table = try Self.table()
        #expect(Set(table.map(\.track)).count >= 3)
        var found: [Row] = []
        let tracks = table.map(\.track).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        for track in tracks {
            let replay = try await runWaymark(["replay", ProjectPaths.sharedData("gpx/" + track).path, "--visits", "--fast"])
            try #require(replay.status == 0, "\(replay.stderr)")
            for line in replay.stdoutLines {
                guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                    object["event"] as? String == "departure",
                    let arrival = object["arrivalTime"] as? String, let departure = object["departureTime"] as? String,
                    let latitude = object["latitude"] as? Double, let longitude = object["longitude"] as? Double,
                    let uncertainty = object["uncertainty"] as? Double
                else { continue }
                let clock = { (time: String) in String(time.dropFirst(11).prefix(8)) }
                found.append(Row(track: track, cells: [
                    clock(arrival), clock(departure), String(format: "%.5f, %.5f", latitude, longitude), "\(Int(uncertainty.rounded()))",
                ]))
            }
        }
        #expect(found == table)
    }
}
