import WaymarkCore
import WaymarkSources

/// The fixes of a Garmin Training Center (TCX) file's trackpoints, in document order, in
/// constant memory.
///
/// A `Trackpoint` (in an activity's laps or a course) gives `Time`, `Position` with
/// `LatitudeDegrees` and `LongitudeDegrees`, `AltitudeMeters`, and in the Activity Extension
/// (`<Extensions><TPX><Speed>`, any namespace prefix) the speed in metres per second. Heart
/// rate, cadence, distance and power are not positions and are skipped. A trackpoint with no
/// `Position` (a watch recording heart rate indoors, or between two GPS fixes) is skipped and
/// counted in ``withoutPositionCount``, one with no `Time` in ``untimedCount``. A file with no
/// trackpoint that has both is refused (`unsupported`), saying what it holds.
///
/// Elements are matched by local name. After an error every call throws it again.
public struct TCXHistoryReader: HistoryReader, XMLHistoryFormat, Sendable {
    static let root: StaticString = "TrainingCenterDatabase"
    var scanner: XMLScanner
    var state = XMLDocumentState.beforeRoot

    /// Fixes returned so far.
    public private(set) var fixCount = 0
    /// Trackpoints with a position but no time, skipped.
    public private(set) var untimedCount = 0
    /// Trackpoints without a position (heart rate only), skipped.
    public private(set) var withoutPositionCount = 0

    /// Opens the TCX file at `path`; `name` is the file's name in errors. `bufferSize` is the
    /// read size; tests use tiny ones.
    public init(path: String, name: String, bufferSize: Int = 256 * 1024) throws(ImportError) {
        scanner = try XMLScanner.opening(path: path, name: name, bufferSize: bufferSize)
    }

    /// Reads a TCX document held in memory.
    public init(bytes: [UInt8], name: String, bufferSize: Int = 256 * 1024) {
        scanner = XMLScanner(source: .memory(bytes), fileName: name, chunkSize: bufferSize)
    }

    public mutating func next() throws(ImportError) -> ImportedItem? { try nextFix().map { .fix($0) } }

    mutating func open() throws -> Fix? {
        if scanner.isNamed("Trackpoint") {
            if !scanner.selfClosing { return try readTrackpoint() }
            withoutPositionCount += 1
        } else if scanner.isNamed("Author") || scanner.isNamed("Creator") || scanner.isNamed("Notes")
            || scanner.isNamed("HeartRateBpm") || scanner.isNamed("Training")
        {
            if !scanner.selfClosing { try scanner.skipElement() }
        }
        return nil
    }

    func close() throws -> Fix? { nil }

    /// Reads a trackpoint through its end tag; its fix if it has a position and a time.
    private mutating func readTrackpoint() throws -> Fix? {
        let level = scanner.depth
        var time: Timestamp?
        var latitude: Double?
        var longitude: Double?
        var altitude: Double?
        var speed: Double?
        var position: Int?
        while scanner.depth >= level {
            guard try scanner.nextMarkup() == .start else {
                if let start = position, scanner.depth < start {
                    position = nil
                    if (latitude == nil) != (longitude == nil) {
                        throw ImportError(
                            .invalidValue,
                            "<Position> has \(latitude == nil ? "LongitudeDegrees but no LatitudeDegrees" : "LatitudeDegrees but no LongitudeDegrees")",
                            file: scanner.fileName, position: scanner.tagPosition)
                    }
                }
                continue
            }
            let depth = scanner.depth - (scanner.selfClosing ? 0 : 1)
            if depth == level, scanner.isNamed("Time") {
                time = try scanner.withElementText { text, scanner throws(ImportError) in
                    guard let time = Timestamp(rfc3339: text) else {
                        throw scanner.textError(
                            .invalidValue, "Time", text, "is not a time: expected an xsd:dateTime such as 2024-05-01T08:30:00Z")
                    }
                    return time
                }
            } else if depth == level, scanner.isNamed("Position"), !scanner.selfClosing {
                position = scanner.depth
            } else if let start = position, depth == start, scanner.isNamed("LatitudeDegrees") {
                latitude = try decimal("LatitudeDegrees", range: -90...90)
            } else if let start = position, depth == start, scanner.isNamed("LongitudeDegrees") {
                longitude = try decimal("LongitudeDegrees", range: -180...180)
            } else if depth == level, scanner.isNamed("AltitudeMeters") {
                altitude = try decimal("AltitudeMeters", range: nil)
            } else if depth > level, scanner.isNamed("Speed") {
                speed = try decimal("Speed", range: nil)
            } else if depth == level, !scanner.isNamed("Extensions"), !scanner.selfClosing {
                try scanner.skipElement()  // HeartRateBpm, Cadence, DistanceMeters, SensorState…
            }
        }
        guard let latitude, let longitude else {
            withoutPositionCount += 1
            return nil
        }
        guard let time else {
            untimedCount += 1
            return nil
        }
        fixCount += 1
        return Fix(
            time: time, coordinate: Coordinate(latitude: latitude, longitude: longitude), altitude: altitude,
            speed: speed)
    }

    /// The current element's number, checked against `range`; nil for an empty element.
    private mutating func decimal(_ element: String, range: ClosedRange<Double>?) throws -> Double? {
        try scanner.withElementText { text, scanner throws(ImportError) -> Double? in
            if text.isEmpty { return nil }
            let value = try scanner.number(text, element)
            if let range, !range.contains(value) {
                throw scanner.textError(
                    .invalidValue, element, text, "is outside \(Int(range.lowerBound))…\(Int(range.upperBound))")
            }
            return value
        }
    }

    /// At the end of a file that gave no fix: why.
    func finish() throws {
        guard fixCount == 0 else { return }
        let holds =
            withoutPositionCount + untimedCount == 0
            ? "no trackpoint"
            : "\(withoutPositionCount) trackpoint\(withoutPositionCount == 1 ? "" : "s") without a <Position> "
                + "(an indoor activity, or heart rate only) and \(untimedCount) without a <Time>"
        throw ImportError(
            .unsupported, "no trackpoint with a position and a time: the file holds \(holds)", file: scanner.fileName)
    }
}
