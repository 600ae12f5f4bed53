/// A CSV header name reduced to what identifies its column: lower case, spaces, dots and
/// dashes as `_`, and a unit taken off the end, whether in brackets (`Speed (km/h)`,
/// `altitude[ft]`) or as a suffix (`speed_kmh`, `lat_deg`).
struct CSVColumnName: Equatable {
    var base: String
    var unit: Unit

    /// The units a header may give; values are converted to metres, m/s and degrees.
    enum Unit: Equatable {
        case none, kilometresPerHour, milesPerHour, knots, feet, metres, metresPerSecond, degrees

        /// The factor to the unit Waymark keeps.
        var factor: Double {
            switch self {
            case .kilometresPerHour: 1 / 3.6
            case .milesPerHour: 0.447_04
            case .knots: 1852.0 / 3600
            case .feet: 0.3048
            default: 1
            }
        }
    }

    private static let units: [(String, Unit)] = [
        ("km/h", .kilometresPerHour), ("kmh", .kilometresPerHour), ("kph", .kilometresPerHour),
        ("mph", .milesPerHour), ("knots", .knots), ("kn", .knots), ("kt", .knots), ("ft", .feet), ("feet", .feet),
        ("m/s", .metresPerSecond), ("mps", .metresPerSecond), ("ms", .metresPerSecond), ("m", .metres),
        ("deg", .degrees), ("degrees", .degrees), ("°", .degrees),
    ]

    init(_ header: String) {
        var name = header.lowercased().trimmingCharacters(" ")
        var unit = Unit.none
        if let last = name.last, last == ")" || last == "]",
            let open = name.lastIndex(of: last == ")" ? "(" : "[")
        {
            let text = String(name[name.index(after: open)..<name.index(before: name.endIndex)]).trimmingCharacters(" ")
            unit = Self.units.first(where: { $0.0 == text })?.1 ?? .none
            name = String(name[..<open]).trimmingCharacters(" ")
        }
        name = String(name.map { $0 == " " || $0 == "-" || $0 == "." ? "_" : $0 })
        if unit == .none, let underscore = name.lastIndex(of: "_"),
            let suffix = Self.units.first(where: { $0.0 == name[name.index(after: underscore)...] })
        {
            let stripped = String(name[..<underscore])
            // `timestamp_ms` is a time in milliseconds, not a speed: keep names that mean
            // something without the suffix only.
            if !stripped.isEmpty && !(suffix.1 == .metresPerSecond && stripped.contains("time")) {
                unit = suffix.1
                name = stripped
            }
        }
        base = name
        self.unit = unit
    }
}

extension String {
    fileprivate func trimmingCharacters(_ character: Character) -> String {
        String(drop(while: { $0 == character }).reversed().drop(while: { $0 == character }).reversed())
    }
}
