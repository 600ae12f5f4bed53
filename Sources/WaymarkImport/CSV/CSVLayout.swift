/// Which column of a CSV file holds each value a fix takes, found from the header's names
/// (or `--columns`), with the unit each column's name gives.
struct CSVLayout {
    struct Column {
        /// 0-based.
        var index: Int
        /// As the header writes it, for messages.
        var name: String
        /// The factor to metres, m/s or degrees.
        var factor: Double
    }

    var latitude: Column
    var longitude: Column
    var time: Column
    /// A separate date column: the time column then holds the time of day.
    var date: Column?
    var accuracy: Column?
    var altitude: Column?
    var speed: Column?
    var course: Column?

    /// Every column index a row must have for the fix's required values.
    var requiredCount: Int { max(latitude.index, longitude.index, time.index, date?.index ?? 0) + 1 }

    init(header: [String], columns: CSVColumns?, file: String, line: Int) throws(ImportError) {
        let names = header.map(CSVColumnName.init)
        var found: [CSVColumnRole: Column] = [:]
        for role in CSVColumnRole.allCases {
            if let given = columns?.columns[role] {
                guard let index = Self.index(of: given, in: header) else {
                    throw ImportError(
                        .invalidValue, "--columns \(role.rawValue)=\(given): the header has no column \"\(given)\" "
                            + "(it has \(Self.list(header)))", file: file, position: .line(line, column: 1))
                }
                found[role] = Column(index: index, name: header[index], factor: names[index].unit.factor)
                continue
            }
            for candidate in role.names {
                if let index = names.firstIndex(where: { $0.base == candidate }),
                    !found.values.contains(where: { $0.index == index })
                {
                    found[role] = Column(index: index, name: header[index], factor: names[index].unit.factor)
                    break
                }
            }
        }
        // A lone date column (`Date,Latitude,Longitude`) holds whole timestamps.
        if found[.time] == nil, let date = found.removeValue(forKey: .date) { found[.time] = date }
        var missing: [String] = []
        if found[.latitude] == nil { missing.append("latitude (lat, latitude…)") }
        if found[.longitude] == nil { missing.append("longitude (lon, lng, long, longitude…)") }
        if found[.time] == nil { missing.append("time (time, timestamp, datetime, utc…)") }
        guard let latitude = found[.latitude], let longitude = found[.longitude], let time = found[.time] else {
            throw ImportError(
                .unsupported, "no \(missing.joined(separator: ", no ")) column: the header has \(Self.list(header)); "
                    + "name them with --columns, e.g. --columns lat=Y,lon=X,time=when", file: file,
                position: .line(line, column: 1))
        }
        self.latitude = latitude
        self.longitude = longitude
        self.time = time
        date = found[.date]
        accuracy = found[.accuracy]
        altitude = found[.altitude]
        speed = found[.speed]
        course = found[.course]
    }

    /// The column `given` names: a header name (any case), else a column number from 1.
    private static func index(of given: String, in header: [String]) -> Int? {
        let lowered = given.lowercased()
        if let index = header.firstIndex(where: { $0.lowercased() == lowered }) { return index }
        if let number = Int(given), number >= 1, number <= header.count { return number - 1 }
        return nil
    }

    private static func list(_ header: [String]) -> String {
        let shown = header.prefix(20).map { "\"\($0)\"" }.joined(separator: ", ")
        return header.count > 20 ? "\(header.count) columns: \(shown)…" : shown.isEmpty ? "no columns" : shown
    }
}
