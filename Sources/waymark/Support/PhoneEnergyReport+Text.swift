import Foundation
import WaymarkAPI

extension PhoneEnergyReport {
    /// The report as `GET /v1/power?device=` answered it; an answer of another shape names the field.
    init(json text: String) throws {
        do {
            self = try JSONDecoder().decode(PhoneEnergyReport.self, from: Data(text.utf8))
        } catch let error as DecodingError {
            throw CommandError("the daemon's phone energy report is not what this waymark expects (\(error.field)): \(text.prefix(200))")
        }
    }

    /// For people: joules by radio, hours in each mode, joules an hour, the profiles.
    var text: String {
        var lines = ["phone energy of \(device) \(from.map { "since \($0)" } ?? "over the whole ledger")"]
        guard reports > 0 || moveSeconds + significantSeconds + unknownSeconds > 0 else {
            lines.append("nothing accounted yet: the device has not reported since the daemon started pricing phones")
            return lines.joined(separator: "\n") + "\n"
        }
        for radio in ["gnss", "wifi", "cellular"] {
            let value = joules[radio] ?? 0
            lines.append("\(radio.padding(toLength: 9, withPad: " ", startingAt: 0))\(Self.format(value, 3)) J  (\(Self.format(value / 3.6, 3)) mWh)")
        }
        lines.append("total    \(Self.format(totalJoules, 3)) J, \(Self.format(joulesPerHour, 1)) J/h")
        lines.append(
            "mode     move \(Self.format(moveSeconds / 3600, 2)) h, significant \(Self.format(significantSeconds / 3600, 2)) h"
                + (unknownSeconds > 0 ? ", unknown \(Self.format(unknownSeconds / 3600, 2)) h (reports without a monitoring mode `m`, or silent in move mode)" : ""))
        lines.append("reports  \(reports) (\(queuedReports) queued offline), \(networkFixes) network fixes")
        lines.append("priced by \(profiles.joined(separator: ", "))")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func format(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }
}
