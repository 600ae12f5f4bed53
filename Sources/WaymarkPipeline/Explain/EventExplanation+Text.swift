import WaymarkCore
import WaymarkRegions

extension EventExplanation {
    /// What `waymark explain` prints on a terminal (and `GET /v1/events/{id}/explain?format=text`
    /// answers): the same facts as `json`, a line each, and a table of the fixes.
    public var text: String {
        var lines: [String] = []
        var head = "event \(event.id): \(event.transition.rawValue) \"\(event.region)\" (\(event.kind.rawValue)), device \(event.device), at \(event.time.rfc3339)"
        if let confirmed = event.confirmedAt { head += ", confirmed \(confirmed.rfc3339)" }
        lines.append(head)
        switch reproduced {
        case true?:
            lines.append("reproduced: yes, recomputed from the stored fixes\(windowText) with the region restored \(startState ?? "?")")
        case false?:
            lines.append("reproduced: NO\(windowText): \(mismatch ?? "the recomputation differs")")
        case nil:
            lines.append("reproduced: not recomputed")
        }
        if let transition {
            lines.append("rule: \(transition.rule.rawValue): \(Self.meaning(of: transition.rule))")
            lines.append(
                transition.rule == .phone
                    ? "position: the phone's, in its transition report (\(event.device)'s own geofencing, not Waymark's fixes)"
                    : transition.estimated ? "position: the engine's estimate from several fixes at rest" : "position: one fix")
            if let confirmed = transition.confirmedAt { lines.append("confirmed: \(confirmed.rfc3339)") }
        }
        var settings: [String] = []
        if let margin { settings.append("margin \(Self.number(margin)) m") }
        if let delay { settings.append("delay \(Self.number(delay)) s") }
        if let exitTimeout { settings.append("exit timeout \(Self.number(exitTimeout)) s") }
        if !settings.isEmpty { lines.append(settings.joined(separator: ", ")) }
        if !before.isEmpty || !after.isEmpty {
            lines.append("fixes (edge: metres to the region's edge, negative inside):")
            lines.append("  time                            latitude     longitude  accuracy  inside      edge")
            for reading in before { lines.append(row(reading)) }
            lines.append("  -- \(event.time.rfc3339): the event's time --")
            for reading in after { lines.append(row(reading)) }
            if omittedAfter > 0 { lines.append("  … \(omittedAfter) more fixes fed, not listed") }
        }
        if let path {
            lines.append("path: straight from \(path.from.fix.time?.rfc3339 ?? "?") to \(path.to.fix.time?.rfc3339 ?? "?"), meeting the edge:")
            for point in path.points {
                lines.append(
                    "  \(point.kind.rawValue) at \(point.fix.time?.rfc3339 ?? "?") (\(Self.number(point.fix.coordinate.latitude)), \(Self.number(point.fix.coordinate.longitude)))")
            }
        }
        if reproduced == false, !recomputed.isEmpty {
            lines.append("recomputed transitions of the region:")
            for made in recomputed {
                lines.append("  \(made.kind.rawValue) at \(made.fix.time?.rfc3339 ?? "?"), confirmed \(made.confirmedAt?.rfc3339 ?? "?"), rule \(made.rule.rawValue)")
            }
        }
        for note in notes { lines.append("note: \(note)") }
        return lines.joined(separator: "\n")
    }

    private var windowText: String {
        guard let window else { return "" }
        return " of \(window.from.rfc3339) to \(window.to.rfc3339)"
    }

    private func row(_ reading: Reading) -> String {
        let time = reading.fix.time?.rfc3339 ?? "no time"
        let accuracy = reading.fix.horizontalAccuracy.map { Self.number($0) + " m" } ?? "-"
        var line = "  " + Self.padded(time, 30) + " " + Self.padded(String(reading.fix.coordinate.latitude), 11, right: true)
        line += " " + Self.padded(String(reading.fix.coordinate.longitude), 13, right: true) + " " + Self.padded(accuracy, 9, right: true)
        line += "  " + Self.padded(reading.inside ? "yes" : "no", 6) + " " + Self.padded(String(format1(reading.edgeDistance)), 9, right: true)
        if let dropped = reading.dropped { line += "  dropped: \(dropped)" }
        if reading.fix.time != nil, reading.fix.time == transition?.confirmedAt { line += "  <- confirmed" }
        return line
    }

    private func format1(_ value: Double) -> String {
        let tenths = (value * 10).rounded() / 10
        return (tenths > 0 ? "+" : "") + Self.number(tenths)
    }

    private static func number(_ value: Double) -> String { JSONObjectWriter.number(value) }

    private static func padded(_ text: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - text.count))
        return right ? fill + text : text + fill
    }

    /// What each rule means (docs/semantics.md §3.3 states them).
    static func meaning(of rule: RegionTransition.Rule) -> String {
        switch rule {
        case .margin: "the new side held the delay and a fix of the crossing was the margin past the edge"
        case .settled: "the new side held the settle time with enough fixes; the margin was waived"
        case .untimed: "fixes without time, confirmed on distance alone"
        case .crossed: "inferred from the straight path between two sparse fixes, neither inside"
        case .initial: "the region asks for an initial trigger and the first fix was inside"
        case .dwell: "the loitering delay passed with the device inside"
        case .phone: "the phone's own report: its geofencing saw the crossing of a circle it watches as it is (an OwnTracks transition)"
        }
    }
}
