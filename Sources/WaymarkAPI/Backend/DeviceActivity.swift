import WaymarkCore

/// What one network device has done since the daemon started (docs/devices.md): its counters
/// (`fixesRecorded`, `fixesDropped`, `eventsRecorded`, …, as `DaemonStatus.Counter` names them),
/// its last fix, and its refused requests by reason (`owntracks.out-of-range`, `forbidden`, …).
/// Requests refused before a device was authenticated are counted under the device `-`.
public struct DeviceActivity: Sendable, Equatable {
    public var device: String
    public var lastFix: HistoryEntry?
    public var counters: [String: Int]
    public var refused: [String: Int]
    /// The phone's monitoring mode (docs/devices.md, "Batteries"); nil for a device not steered
    /// (one that never sent an OwnTracks location).
    public var mode: PhoneModeStatus?

    public init(
        device: String, lastFix: HistoryEntry? = nil, counters: [String: Int] = [:], refused: [String: Int] = [:], mode: PhoneModeStatus? = nil
    ) {
        self.device = device
        self.lastFix = lastFix
        self.counters = counters
        self.refused = refused
        self.mode = mode
    }

    /// `{"device":…,"lastFix":{…}|null,"counters":{…},"refused":{…},"mode":{…}|null}`.
    var json: String {
        var w = JSONObjectWriter()
        w.add("device", device)
        w.addRaw("lastFix", lastFix?.json ?? "null")
        w.addRaw("counters", SubscriptionStatus.object(counters))
        w.addRaw("refused", SubscriptionStatus.object(refused))
        w.addRaw("mode", mode?.json ?? "null")
        return w.object
    }
}

extension DaemonStatus {
    /// `waymark_device_<counter>_total{device=…}` and `waymark_device_requests_refused_total{device=…,reason=…}`.
    var deviceMetrics: String {
        guard !devices.isEmpty else { return "" }
        var out = ""
        var byCounter: [String: [(String, Int)]] = [:]
        for activity in devices {
            for (name, value) in activity.counters { byCounter[name, default: []].append((activity.device, value)) }
        }
        for (name, rows) in byCounter.sorted(by: { $0.key < $1.key }) {
            let metric = "waymark_device_" + Self.snakeCase(name) + "_total"
            out += "# HELP \(metric) \(Self.help[name] ?? "Count of \(name) since start"), per network device.\n# TYPE \(metric) counter\n"
            for (device, value) in rows { out += "\(metric){device=\"\(Self.labelEscaped(device))\"} \(value)\n" }
        }
        let refused = devices.flatMap { activity in activity.refused.sorted(by: { $0.key < $1.key }).map { (activity.device, $0.key, $0.value) } }
        if !refused.isEmpty {
            out += "# HELP waymark_device_requests_refused_total Requests the network listener refused, by device and reason.\n"
            out += "# TYPE waymark_device_requests_refused_total counter\n"
            for (device, reason, value) in refused {
                out += "waymark_device_requests_refused_total{device=\"\(Self.labelEscaped(device))\",reason=\"\(Self.labelEscaped(reason))\"} \(value)\n"
            }
        }
        return out
    }
}

extension DaemonStatus {
    /// `waymark_output_…{output=…}`: delivered, failed attempts and given-up events since start,
    /// the lag in events behind the history, the last delivery's latency, and whether it stopped.
    var outputMetrics: String {
        guard !outputs.isEmpty else { return "" }
        var out = ""
        func family(_ name: String, _ type: String, _ help: String, _ value: (OutputStatus) -> String?) {
            let rows = outputs.compactMap { output in value(output).map { (output.name, $0) } }
            guard !rows.isEmpty else { return }
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
            for (output, value) in rows { out += "\(name){output=\"\(Self.labelEscaped(output))\"} \(value)\n" }
        }
        family("waymark_output_delivered_total", "counter", "Events the output delivered since start.") { "\($0.activity?.delivered ?? 0)" }
        family("waymark_output_failed_attempts_total", "counter", "Deliveries the receiver failed since start (each retried).") {
            "\($0.activity?.failedAttempts ?? 0)"
        }
        family("waymark_output_dead_lettered_total", "counter", "Events the output gave up on since start.") { "\($0.activity?.deadLettered ?? 0)" }
        family("waymark_output_lag_events", "gauge", "Events recorded after the output's saved cursor (filtered ones included).") {
            "\(max(0, newestEvent - $0.deliveredThrough))"
        }
        family("waymark_output_last_latency_seconds", "gauge", "How long the last delivery took.") { output in
            output.activity?.lastLatencyMilliseconds.map { Self.number($0 / 1000) }
        }
        family("waymark_output_stopped", "gauge", "1 when the receiver stopped the output (410).") { $0.disabled == nil ? "0" : "1" }
        return out
    }
}
