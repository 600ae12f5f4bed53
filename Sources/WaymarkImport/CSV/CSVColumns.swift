/// Which CSV columns hold what, as `waymark import --columns` says it: `lat=Y,lon=X,time=when`.
/// A role it leaves out is found by the header's names as usual (see `CSVColumnRole.names`).
/// A value is a header name (compared without regard to case) or, when no column has that
/// name, a column number counted from 1.
public struct CSVColumns: Sendable, Equatable {
    public var columns: [CSVColumnRole: String]

    public init(_ columns: [CSVColumnRole: String] = [:]) {
        self.columns = columns
    }

    /// Parses `key=column,key=column…`; keys are the roles' names and their aliases (`lat`,
    /// `latitude`, `lon`, `lng`, `longitude`, `time`, `timestamp`, `date`, `acc`, `accuracy`,
    /// `alt`, `altitude`, `ele`, `elevation`, `speed`, `course`, `bearing`, `heading`).
    public init(parsing text: String) throws(ImportError) {
        var columns: [CSVColumnRole: String] = [:]
        for pair in text.split(separator: ",", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1)
            let key = parts[0].trimmingSpaces.lowercased()
            guard parts.count == 2, !parts[1].trimmingSpaces.isEmpty else {
                throw Self.error("\"\(pair)\" is not KEY=COLUMN (e.g. lat=Y,lon=X,time=when)")
            }
            guard let role = CSVColumnRole.allCases.first(where: { $0.keys.contains(key) }) else {
                let known = CSVColumnRole.allCases.flatMap(\.keys).joined(separator: ", ")
                throw Self.error("unknown key \"\(key)\" (known: \(known))")
            }
            guard columns[role] == nil else { throw Self.error("\(role.rawValue) is given twice") }
            columns[role] = parts[1].trimmingSpaces
        }
        guard !columns.isEmpty else { throw Self.error("empty; expected KEY=COLUMN pairs (e.g. lat=Y,lon=X,time=when)") }
        self.columns = columns
    }

    private static func error(_ message: String) -> ImportError {
        ImportError(.invalidValue, message, file: "--columns")
    }
}

/// What a CSV column holds.
public enum CSVColumnRole: String, Sendable, CaseIterable {
    case latitude, longitude, time, date, accuracy, altitude, speed, course

    /// The keys `--columns` accepts for the role.
    var keys: [String] {
        switch self {
        case .latitude: ["lat", "latitude"]
        case .longitude: ["lon", "lng", "long", "longitude"]
        case .time: ["time", "timestamp"]
        case .date: ["date"]
        case .accuracy: ["acc", "accuracy"]
        case .altitude: ["alt", "altitude", "ele", "elevation"]
        case .speed: ["speed"]
        case .course: ["course", "bearing", "heading"]
        }
    }

    /// Header names that hold the role, most likely first, as `CSVColumnName` normalises
    /// them (lower case, spaces and dashes as `_`, a unit such as `(km/h)` or `_deg` removed).
    var names: [String] {
        switch self {
        case .latitude: ["lat", "latitude", "gps_lat", "gps_latitude", "location_lat", "location_latitude"]
        case .longitude:
            ["lon", "lng", "long", "longitude", "gps_lon", "gps_lng", "gps_long", "gps_longitude", "location_lon",
             "location_lng", "location_longitude"]
        case .time:
            ["time", "timestamp", "datetime", "date_time", "utc", "time_utc", "utc_time", "timestamp_utc", "datetime_utc",
             "date_time_utc", "gps_time", "recorded_at", "tst", "unix_time", "unixtime", "epoch", "timestamp_ms", "time_ms"]
        case .date: ["date", "utc_date", "date_utc", "gps_date"]
        case .accuracy: ["accuracy", "acc", "horizontal_accuracy", "hacc", "h_acc", "horizontal_acc", "eph"]
        case .altitude: ["altitude", "alt", "elevation", "ele", "height", "elev"]
        case .speed: ["speed", "velocity", "vel", "spd", "ground_speed"]
        case .course: ["course", "bearing", "heading", "cog", "direction"]
        }
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
