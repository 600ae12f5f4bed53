/// The place-data file's tables as read (layout in scripts/place_data.py), validated: every
/// index points inside its table, every coordinate is in range, every ring is closed.
struct PlaceData: Sendable {
    /// The format `PlaceIndex` reads; scripts/place_data.py writes the same number.
    static let formatVersion: UInt32 = 1
    static let magic = Array("WAYPLACE".utf8)
    static let trailer = Array("END!".utf8)
    static let none16 = UInt16.max
    static let none32 = UInt32.max

    var strings: PlaceStrings
    /// ISO 3166-1 alpha-2 codes and the strings naming the countries.
    var countryCodes: [String]
    var countryNames: [UInt32]
    /// Each zone's IANA name (string) and its country (`none16`: several or none).
    var zoneNames: [UInt32]
    var zoneCountries: [UInt16]
    /// Rings: zone, first vertex, vertex count (closed: last = first).
    var rings: [(zone: UInt16, start: Int, count: Int)]
    /// Vertices, E7 degrees.
    var longitudes: [Int32]
    var latitudes: [Int32]
    /// Places, E7 degrees; names and admin1 as strings (`none32`: no admin1).
    var placeLatitudes: [Int32]
    var placeLongitudes: [Int32]
    var placeNames: [UInt32]
    var placeAdmin1: [UInt32]
    var placeCountries: [UInt16]

    init(bytes: [UInt8]) throws(PlaceDataError) {
        var reader = PlaceDataReader(bytes)
        guard try Array(reader.take(8, "the magic")) == Self.magic else {
            throw PlaceDataError("not a Waymark place-data file (bad magic)", offset: 0)
        }
        let version = try reader.u32("the format version")
        guard version == Self.formatVersion else {
            throw PlaceDataError("unsupported place-data format version \(version) (this Waymark reads version \(Self.formatVersion))", offset: 8)
        }
        strings = try PlaceStrings(&reader)

        let countryCount = try reader.count("countries", elementSize: 6)
        countryCodes = []
        countryNames = []
        for _ in 0..<countryCount {
            let at = reader.offset
            let code = try reader.take(2, "a country code")
            guard code.allSatisfy({ (65...90).contains($0) }) else {
                throw PlaceDataError("country code is not two capital letters", offset: at)
            }
            countryCodes.append(String(decoding: code, as: UTF8.self))
            countryNames.append(try Self.string(&reader, strings, "a country's name"))
        }

        let zoneCount = try reader.count("zones", elementSize: 6)
        guard zoneCount < Int(Self.none16) else { throw PlaceDataError("too many zones (\(zoneCount))", offset: reader.offset - 4) }
        zoneNames = []
        zoneCountries = []
        for _ in 0..<zoneCount {
            zoneNames.append(try Self.string(&reader, strings, "a zone's name"))
            zoneCountries.append(try Self.country(&reader, countryCount, optional: true))
        }

        let ringCount = try reader.count("rings", elementSize: 6)
        rings = []
        var vertexTotal = 0
        for _ in 0..<ringCount {
            let at = reader.offset
            let zone = try reader.u16("a ring's zone")
            let count = Int(try reader.u32("a ring's vertex count"))
            guard Int(zone) < zoneCount else { throw PlaceDataError("ring of zone \(zone), but there are \(zoneCount) zones", offset: at) }
            guard count >= 4, count <= bytes.count else { throw PlaceDataError("ring of \(count) vertices (at least 4, closed)", offset: at + 2) }
            rings.append((zone, vertexTotal, count))
            vertexTotal += count
        }

        let verticesAt = reader.offset
        let vertexCount = try reader.count("vertices", elementSize: 8)
        guard vertexCount == vertexTotal else {
            throw PlaceDataError("\(vertexCount) vertices, but the rings hold \(vertexTotal)", offset: verticesAt)
        }
        (longitudes, latitudes) = try reader.pairs(vertexCount, "the vertices")
        if let bad = Self.outOfRange(latitudes: latitudes, longitudes: longitudes) {
            throw PlaceDataError("vertex \(bad) lies outside −90…90, −180…180", offset: verticesAt + 4 + 8 * bad)
        }
        for ring in rings where longitudes[ring.start] != longitudes[ring.start + ring.count - 1]
            || latitudes[ring.start] != latitudes[ring.start + ring.count - 1]
        {
            throw PlaceDataError("ring starting at vertex \(ring.start) is not closed", offset: verticesAt + 4 + 8 * ring.start)
        }

        let placesAt = reader.offset
        let placeCount = try reader.count("places", elementSize: 18)
        placeLatitudes = try reader.array(placeCount, of: Int32.self, "the places' latitudes")
        placeLongitudes = try reader.array(placeCount, of: Int32.self, "the places' longitudes")
        if let bad = Self.outOfRange(latitudes: placeLatitudes, longitudes: placeLongitudes) {
            throw PlaceDataError("place \(bad) lies outside −90…90, −180…180", offset: placesAt + 4 + 4 * bad)
        }
        let stringCount = strings.count
        let namesAt = reader.offset
        let placeNames = try reader.array(placeCount, of: UInt32.self, "the places' names")
        if let bad = placeNames.firstIndex(where: { Int($0) >= stringCount }) {
            throw PlaceDataError("place \(bad)'s name is string \(placeNames[bad]) of \(strings.count)", offset: namesAt + 4 * bad)
        }
        let admin1At = reader.offset
        let placeAdmin1 = try reader.array(placeCount, of: UInt32.self, "the places' admin1")
        if let bad = placeAdmin1.firstIndex(where: { $0 != Self.none32 && Int($0) >= stringCount }) {
            throw PlaceDataError("place \(bad)'s admin1 is string \(placeAdmin1[bad]) of \(strings.count)", offset: admin1At + 4 * bad)
        }
        let countriesAt = reader.offset
        let placeCountries = try reader.array(placeCount, of: UInt16.self, "the places' countries")
        if let bad = placeCountries.firstIndex(where: { Int($0) >= countryCount }) {
            throw PlaceDataError("place \(bad)'s country is \(placeCountries[bad]) of \(countryCount)", offset: countriesAt + 2 * bad)
        }
        self.placeNames = placeNames
        self.placeAdmin1 = placeAdmin1
        self.placeCountries = placeCountries
        let end = reader.offset
        guard try Array(reader.take(4, "the trailer")) == Self.trailer else {
            throw PlaceDataError("missing END! trailer after the places", offset: end)
        }
        guard reader.offset == bytes.count else {
            throw PlaceDataError("\(bytes.count - reader.offset) unexpected bytes after the trailer", offset: reader.offset)
        }
    }

    private static func string(_ reader: inout PlaceDataReader, _ strings: PlaceStrings, _ what: String) throws(PlaceDataError) -> UInt32 {
        let at = reader.offset
        let index = try reader.u32(what)
        guard Int(index) < strings.count else { throw PlaceDataError("\(what) is string \(index) of \(strings.count)", offset: at) }
        return index
    }

    private static func country(_ reader: inout PlaceDataReader, _ count: Int, optional: Bool) throws(PlaceDataError) -> UInt16 {
        let at = reader.offset
        let index = try reader.u16("a country index")
        guard Int(index) < count || (optional && index == none16) else {
            throw PlaceDataError("country \(index) of \(count)", offset: at)
        }
        return index
    }

    /// The first index whose E7 coordinate is outside the valid ranges.
    private static func outOfRange(latitudes: [Int32], longitudes: [Int32]) -> Int? {
        latitudes.indices.first { abs(Int64(latitudes[$0])) > 900_000_000 || abs(Int64(longitudes[$0])) > 1_800_000_000 }
    }
}

/// The file's strings: one UTF-8 blob and the offsets between them, decoded when asked.
struct PlaceStrings: Sendable {
    private let blob: [UInt8]
    private let offsets: [UInt32]

    var count: Int { offsets.count - 1 }

    init(_ reader: inout PlaceDataReader) throws(PlaceDataError) {
        let count = try reader.count("strings", elementSize: 4)
        let offsetsAt = reader.offset
        offsets = try reader.array(count + 1, of: UInt32.self, "the string offsets")
        for i in 0..<count where offsets[i] > offsets[i + 1] {
            throw PlaceDataError("string offsets decrease at string \(i)", offset: offsetsAt + 4 * i)
        }
        guard offsets[0] == 0 else { throw PlaceDataError("string offsets do not start at 0", offset: offsetsAt) }
        blob = Array(try reader.take(Int(offsets[count]), "the strings"))
    }

    subscript(index: UInt32) -> String {
        String(decoding: blob[Int(offsets[Int(index)])..<Int(offsets[Int(index) + 1])], as: UTF8.self)
    }
}
