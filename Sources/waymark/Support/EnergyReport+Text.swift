import Foundation
import WaymarkAPI
import WaymarkCore

extension EnergyReport {
    /// The report as `GET /v1/power` answered it.
    init(json text: String) throws {
        guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            let by = (object["by"] as? String).flatMap(Grouping.init(rawValue:)),
            let rows = object["rows"] as? [[String: Any]]
        else { throw CommandError("the daemon's power report is not what this waymark expects: \(text.prefix(200))") }
        self.init(buckets: [], since: (object["from"] as? String).flatMap(Timestamp.init(rfc3339:)), by: by)
        self.rows = try rows.map { row in
            guard let radio = row["radio"] as? String, let profile = row["profile"] as? String,
                let joules = (row["joules"] as? NSNumber)?.doubleValue, let seconds = row["seconds"] as? [String: NSNumber]
            else { throw CommandError("a row of the daemon's power report is malformed: \(row)") }
            return Row(handler: row["handler"] as? String, radio: radio, profile: profile, seconds: seconds.mapValues(\.doubleValue), joules: joules)
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
