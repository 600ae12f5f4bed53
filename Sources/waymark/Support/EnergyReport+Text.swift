import Foundation
import WaymarkAPI
import WaymarkCore

extension EnergyReport {
    /// The report as `GET /v1/power` answered it; an answer of another shape names the field.
    init(json text: String) throws {
        do {
            self = try JSONDecoder().decode(EnergyReport.self, from: Data(text.utf8))
        } catch let error as DecodingError {
            throw CommandError("the daemon's power report is not what this waymark expects (\(error.field)): \(text.prefix(200))")
        }
    }

    /// A table for people: one line per row, joules and milliwatt-hours, time by state.
    var text: String {
        var lines = ["energy \(from.map { "since \($0.rfc3339)" } ?? "over the whole ledger"), by \(by.rawValue)"]
        if rows.isEmpty { lines.append("nothing accounted yet") }
        let header = (by == .handler ? ["HANDLER"] : []) + ["RADIO", "PROFILE", "JOULES", "mWh", "TIME BY STATE"]
        var table = [header]
        for row in rows {
            let states = row.seconds.sorted { $0.key < $1.key }.map { "\($0.key) \(Self.format($0.value, digits: 0)) s" }
            table.append(
                (by == .handler ? [row.handler ?? ""] : [])
                    + [row.radio, row.profile, Self.format(row.joules, digits: 3), Self.format(row.joules / 3.6, digits: 3), states.joined(separator: ", ")])
        }
        if !rows.isEmpty {
            let widths = (0..<header.count).map { column in table.map { $0[column].count }.max() ?? 0 }
            for cells in table {
                lines.append(zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
                    .trimmingCharacters(in: .whitespaces))
            }
            lines.append("total \(Self.format(totalJoules, digits: 3)) J")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func format(_ value: Double, digits: Int) -> String { String(format: "%.\(digits)f", value) }
}
