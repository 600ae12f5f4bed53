import WaymarkCore
import WaymarkStore

/// The energy ledger summed for `waymark power` and `GET /v1/power`: by radio (and profile), or
/// by handler (and radio and profile). Every row names the profile that priced it; a radio
/// priced by two profiles over the period (the configuration changed) gives two rows.
public struct EnergyReport: Sendable, Equatable {
    /// How rows are grouped.
    public enum Grouping: String, Sendable, CaseIterable, Decodable {
        case radio, handler
    }

    /// Decodable with the keys `json` writes, so the CLI reads `GET /v1/power` as this type.
    public struct Row: Sendable, Equatable, Decodable {
        /// The handler charged (`(daemon)` for the daemon's own needs); nil when grouped by radio.
        public var handler: String?
        public var radio: String
        public var profile: String
        /// Seconds by state (`acquiring`, `tracking`, `scanning`, `off`, …).
        public var seconds: [String: Double]
        public var joules: Double

        public init(handler: String?, radio: String, profile: String, seconds: [String: Double], joules: Double) {
            self.handler = handler
            self.radio = radio
            self.profile = profile
            self.seconds = seconds
            self.joules = joules
        }
    }

    /// The start of the earliest hour included (the hour holding `since`), or nil for all.
    public var from: Timestamp?
    public var by: Grouping
    /// Ordered by handler (when grouped so), radio, profile.
    public var rows: [Row]

    /// Sums `buckets` (from `WaymarkStore.energy(since:)`) into rows.
    public init(buckets: [EnergyBucket], since: Timestamp?, by: Grouping) {
        self.by = by
        from = since?.hourStart
        var sums: [[String]: Row] = [:]
        for bucket in buckets {
            let handler = by == .handler ? bucket.handler : nil
            let key = [handler ?? "", bucket.radio, bucket.profile]
            sums[key, default: Row(handler: handler, radio: bucket.radio, profile: bucket.profile, seconds: [:], joules: 0)]
                .seconds[bucket.state, default: 0] += bucket.seconds
            sums[key]!.joules += bucket.joules
        }
        rows = sums.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map(\.value)
    }

    public var totalJoules: Double { rows.reduce(0) { $0 + $1.joules } }

    /// `{"from":…|null,"by":"radio","totalJoules":…,"rows":[{"radio","profile","joules","seconds":{…}}]}`
    /// (rows grouped by handler lead with `"handler"`); seconds and joules to the millisecond
    /// and millijoule.
    public var json: String {
        var w = JSONObjectWriter()
        w.add("from", from?.rfc3339)
        w.add("by", by.rawValue)
        w.add("totalJoules", Self.rounded(totalJoules))
        w.addRaw("rows", "[" + rows.map(\.json).joined(separator: ",") + "]")
        return w.object
    }

    static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}

extension EnergyReport.Row {
    var json: String {
        var w = JSONObjectWriter()
        if let handler { w.add("handler", handler) }
        w.add("radio", radio)
        w.add("profile", profile)
        w.add("joules", EnergyReport.rounded(joules))
        var states = JSONObjectWriter()
        for (state, value) in seconds.sorted(by: { $0.key < $1.key }) { states.add(state, EnergyReport.rounded(value)) }
        w.addRaw("seconds", states.object)
        return w.object
    }
}
