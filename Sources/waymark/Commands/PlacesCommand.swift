import ArgumentParser
import WaymarkCore
import WaymarkPlaces
import WaymarkTimelineJob

/// `waymark places`: the offline reverse geocoder (docs/places.md).
struct PlacesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "places",
        abstract: "Place names and time zones offline: the nearest GeoNames place, its country, the IANA zone.",
        subcommands: [Lookup.self])

    struct Lookup: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Name a point: place, admin1, country, distance, time zone, at sea.",
            discussion: """
                With --batch, reads "LAT LON" (or "LAT,LON") lines on standard input and writes one \
                JSON object per line (--json's shape); a line that is not a coordinate gets \
                {"error": …}. The place data is read from --data, $WAYMARK_PLACE_DATA or \
                /usr/local/share/waymark/places.bin (built by scripts/install-dependencies.sh).
                """)

        /// LAT LON; collected as unrecognised so that a negative number is not read as an option.
        @Argument(parsing: .allUnrecognized, help: ArgumentHelp("LAT LON: degrees (south and west negative).", valueName: "LAT LON"))
        var coordinate: [String] = []

        private var latitude: Double? { coordinate.count == 2 ? Double(coordinate[0]) : nil }
        private var longitude: Double? { coordinate.count == 2 ? Double(coordinate[1]) : nil }

        @Flag(help: "Print one JSON object.")
        var json = false

        @Flag(help: "Read coordinates from standard input, one per line; write JSON lines.")
        var batch = false

        @Option(help: "Place-data file.")
        var data: String?

        func validate() throws {
            if batch {
                if !coordinate.isEmpty { throw ValidationError("--batch reads its coordinates from standard input") }
            } else {
                guard let latitude, let longitude else {
                    throw ValidationError("give LAT LON (two numbers), or --batch; got '\(coordinate.joined(separator: " "))'")
                }
                guard Coordinate(latitude: latitude, longitude: longitude).isValid else {
                    throw ValidationError("\(latitude) \(longitude) is not a coordinate (−90…90, −180…180)")
                }
            }
        }

        func run() throws {
            let index: PlaceIndex
            do { index = try PlaceDataFile.load(path: data) } catch { throw CommandError("\(error)") }
            if !batch, let latitude, let longitude {
                let coordinate = Coordinate(latitude: latitude, longitude: longitude)
                let result = index.lookup(coordinate)
                print(json ? result.json(for: coordinate) : result.text)
                return
            }
            while let line = readLine() {
                let fields = line.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" })
                if let lat = fields.first.flatMap({ Double($0) }), fields.count == 2, let lon = Double(fields[1]),
                    Coordinate(latitude: lat, longitude: lon).isValid
                {
                    let coordinate = Coordinate(latitude: lat, longitude: lon)
                    print(index.lookup(coordinate).json(for: coordinate))
                } else {
                    var error = JSONObjectWriter()
                    error.add("error", "not a coordinate: \(line)")
                    print(error.object)
                }
            }
        }
    }
}
