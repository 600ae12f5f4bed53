import WaymarkCore

extension DaemonStatus {
    /// The status in Prometheus' text exposition format 0.0.4
    /// (https://prometheus.io/docs/instrumenting/exposition_formats/): every counter as
    /// `waymark_<snake_case>_total`, and gauges for the source, regions, uptime and last fix.
    public var prometheusText: String {
        var out = ""
        func metric(_ name: String, _ type: String, _ help: String, _ value: String, labels: String = "") {
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n\(name)\(labels) \(value)\n"
        }
        metric(
            "waymark_build_info", "gauge", "The daemon's version, as a label.", "1",
            labels: "{version=\"\(Self.labelEscaped(version))\"}")
        metric("waymark_uptime_seconds", "gauge", "Seconds since the daemon started.", Self.number(uptime))
        metric(
            "waymark_source_connected", "gauge", "1 when the fix source (gpsd or replay) is reachable.",
            source.connected ? "1" : "0", labels: "{kind=\"\(source.kind.rawValue)\"}")
        metric(
            "waymark_source_watching", "gauge", "1 when fixes are being requested from the source.",
            source.watching ? "1" : "0", labels: "{kind=\"\(source.kind.rawValue)\"}")
        metric("waymark_regions", "gauge", "Regions being monitored.", String(regionCount))
        if let lastFix {
            metric(
                "waymark_last_fix_timestamp_seconds", "gauge", "Unix time of the most recent fix.",
                Self.number(lastFix.time.secondsSince1970))
        }
        for (name, value) in counters.sorted(by: { $0.key < $1.key }) {
            let metricName = "waymark_" + Self.snakeCase(name) + "_total"
            metric(metricName, "counter", Self.help[name] ?? "Count of \(name) since start.", String(value))
        }
        out += subscriptionMetrics
        out += deviceMetrics
        out += outputMetrics
        if let power {
            let network = power.network
            let rows = [
                ("gnss", power.gnssProfile, power.gnssJoules), ("bluetooth", power.bluetoothProfile, power.bluetoothJoules),
                (network.radio ?? "", network.profile ?? "", network.joules),
            ]
                .compactMap { radio, profile, joules in joules.map { (radio, profile, $0) } }
            if !rows.isEmpty {
                out += "# HELP waymark_energy_joules_total Energy the radio used since start, as its power profile prices it.\n"
                out += "# TYPE waymark_energy_joules_total counter\n"
                for (radio, profile, joules) in rows {
                    out += "waymark_energy_joules_total{radio=\"\(radio)\",profile=\"\(Self.labelEscaped(profile))\"} \(Self.number(joules))\n"
                }
            }
        }
        return out
    }

    static let help: [String: String] = [
        Counter.fixesRecorded: "Fixes recorded since start.",
        Counter.gapsRecorded: "Gaps in reception recorded since start.",
        Counter.eventsRecorded: "Region events recorded since start.",
        Counter.fixesDropped: "Fixes refused by validation since start.",
        Counter.handlersRun: "Event handler processes started since start.",
        Counter.handlersFailed: "Event handler processes that failed since start.",
        Counter.reportedRegionDisagreements:
            "Region transitions devices reported themselves that disagreed with the server's state when they arrived, since start.",
    ]

    /// `fixesRecorded` → `fixes_recorded`; anything outside `[a-zA-Z0-9_]` becomes `_`.
    static func snakeCase(_ name: String) -> String {
        var out = ""
        for scalar in name.unicodeScalars {
            if ("A"..."Z").contains(scalar) {
                if !out.isEmpty { out += "_" }
                out.unicodeScalars.append(Unicode.Scalar(scalar.value + 32)!)
            } else if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_" {
                out.unicodeScalars.append(scalar)
            } else {
                out += "_"
            }
        }
        return out
    }

    static func labelEscaped(_ value: String) -> String {
        var out = ""
        for character in value {
            switch character {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out
    }

    static func number(_ value: Double) -> String {
        value.isFinite ? JSONObjectWriter.number(value) : "NaN"
    }
}
