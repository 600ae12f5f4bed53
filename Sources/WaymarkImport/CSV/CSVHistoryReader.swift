import WaymarkCore
import WaymarkSources

/// Reads fixes from a CSV file with a header (RFC 4180 quoting): the delimiter (`,`, `;` or
/// TAB) is the one the header uses most, and the latitude, longitude and time columns are
/// found by their names (`CSVColumnRole.names`) unless `columns` says which they are.
/// Optional accuracy, altitude, speed and course columns are read when present, in the unit
/// the header names (`speed (km/h)`, `altitude_ft`), else metres, m/s and degrees.
///
/// A row whose latitude, longitude or time is empty is skipped and counted; a value that is
/// there but wrong is an error naming its line, column number and column name.
public struct CSVHistoryReader: HistoryReader {
    private var scanner: CSVRecordScanner
    private let columns: CSVColumns?
    private var layout: CSVLayout?
    /// A `;` or TAB file may write decimals with a comma (`47,37`).
    private var decimalComma = false

    /// Rows without a latitude or longitude value: skipped.
    public private(set) var rowsWithoutPosition = 0
    /// Rows with a position but no time: skipped.
    public private(set) var rowsWithoutTime = 0

    public init(input: ImportInput, columns: CSVColumns? = nil) {
        scanner = CSVRecordScanner(input: input)
        self.columns = columns
    }

    public mutating func next() throws(ImportError) -> ImportedItem? {
        if layout == nil { try readHeader() }
        guard let layout else { return nil }
        while try scanner.next() {
            if scanner.isBlank { continue }
            if let fix = try fix(layout) { return .fix(fix) }
        }
        return nil
    }

    private mutating func readHeader() throws(ImportError) {
        scanner.delimiter = try Self.delimiter(of: scanner.input)
        decimalComma = scanner.delimiter != UInt8(ascii: ",")
        if try scanner.input.peek(3) == [0xEF, 0xBB, 0xBF] { scanner.input.advance(by: 3) }
        repeat {
            guard try scanner.next() else {
                throw ImportError(.unknownFormat, "the file is empty; expected a CSV header line", file: scanner.input.name)
            }
        } while scanner.isBlank
        let header = (0..<scanner.fields.count).map { scanner.text($0) }
        layout = try CSVLayout(header: header, columns: columns, file: scanner.input.name, line: scanner.line)
    }

    private mutating func fix(_ layout: CSVLayout) throws(ImportError) -> Fix? {
        guard scanner.fields.count >= layout.requiredCount else {
            throw ImportError(
                .syntax, "the row has \(scanner.fields.count) fields; latitude, longitude and time are in columns "
                    + "\(layout.latitude.index + 1), \(layout.longitude.index + 1) and \(layout.time.index + 1)",
                file: scanner.input.name, position: .line(scanner.line, column: scanner.fields.count))
        }
        guard let latitude = try number(layout.latitude, "latitude", in: -90...90),
            let longitude = try number(layout.longitude, "longitude", in: -180...180)
        else {
            rowsWithoutPosition += 1
            return nil
        }
        guard let time = try time(layout) else {
            rowsWithoutTime += 1
            return nil
        }
        var fix = Fix(time: time, coordinate: Coordinate(latitude: latitude, longitude: longitude))
        if let column = layout.accuracy { fix.horizontalAccuracy = try number(column, "accuracy", in: 0...Double.infinity, negativeIsUnknown: true) }
        if let column = layout.altitude { fix.altitude = try number(column, "altitude", in: -20_000...100_000) }
        if let column = layout.speed { fix.speed = try number(column, "speed", in: 0...Double.infinity, negativeIsUnknown: true) }
        if let column = layout.course { fix.course = try number(column, "course", in: 0...360, negativeIsUnknown: true) }
        return fix
    }

    /// A number in `column`, converted by its unit; nil when the field is empty (or negative,
    /// which some writers use for "unknown", when `negativeIsUnknown`).
    private func number(
        _ column: CSVLayout.Column, _ what: String, in range: ClosedRange<Double>, negativeIsUnknown: Bool = false
    ) throws(ImportError) -> Double? {
        let bytes = scanner.bytes(column.index)
        if bytes.isEmpty { return nil }
        guard let parsed = parse(bytes) else {
            throw invalid(column, "\(what) \(quoted(column)) is not a number")
        }
        let value = parsed * column.factor
        if negativeIsUnknown && value < 0 { return nil }
        guard range.contains(value) else {
            throw invalid(column, "\(what) \(quoted(column)) is out of range (\(bounds(range)))")
        }
        return value
    }

    private func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        if decimalComma, bytes.count < 64, let comma = bytes.firstIndex(of: UInt8(ascii: ",")), !bytes.contains(UInt8(ascii: ".")) {
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { copy in
                _ = copy.initialize(fromContentsOf: bytes)
                copy[comma] = UInt8(ascii: ".")
                return DecimalParser.parse(UnsafeBufferPointer(copy))
            }
        }
        return DecimalParser.parse(bytes)
    }

    private func time(_ layout: CSVLayout) throws(ImportError) -> Timestamp? {
        let bytes = scanner.bytes(layout.time.index)
        if bytes.isEmpty { return nil }
        if let time = CSVTime.parse(bytes) { return time }
        if let date = layout.date, let time = CSVTime.parse(date: scanner.bytes(date.index), time: bytes) { return time }
        let expected = layout.date.map { "with the date in column \($0.index + 1) (\"\($0.name)\"), " } ?? ""
        throw invalid(
            layout.time, "time \(quoted(layout.time)) is not a time: expected \(expected)RFC 3339 "
                + "(2024-03-01T08:15:00Z), YYYY-MM-DD HH:MM:SS (UTC) or Unix epoch seconds or milliseconds")
    }

    private func quoted(_ column: CSVLayout.Column) -> String {
        let text = scanner.text(column.index)
        return "\"\(text.count > 40 ? text.prefix(40) + "…" : text)\""
    }

    private func bounds(_ range: ClosedRange<Double>) -> String {
        range.upperBound == .infinity ? "at least \(Int(range.lowerBound))" : "\(Int(range.lowerBound))…\(Int(range.upperBound))"
    }

    private func invalid(_ column: CSVLayout.Column, _ message: String) -> ImportError {
        ImportError(
            .invalidValue, "column \"\(column.name)\": \(message)", file: scanner.input.name,
            position: .line(scanner.line, column: column.index + 1))
    }

    /// The delimiter the first line uses most outside quotes: `,`, `;` or TAB (`,` on a tie
    /// or when there is none, a one-column file).
    static func delimiter(of input: ImportInput) throws(ImportError) -> UInt8 {
        var scanned = 0
        var counts = (comma: 0, semicolon: 0, tab: 0)
        var inQuotes = false
        scan: while true {
            let bytes = input.unread
            while scanned < bytes.count {
                switch bytes[scanned] {
                case UInt8(ascii: "\""): inQuotes.toggle()
                case UInt8(ascii: "\n") where !inQuotes: break scan
                case UInt8(ascii: ","): if !inQuotes { counts.comma += 1 }
                case UInt8(ascii: ";"): if !inQuotes { counts.semicolon += 1 }
                case UInt8(ascii: "\t"): if !inQuotes { counts.tab += 1 }
                default: break
                }
                scanned += 1
            }
            guard try input.more() else { break }
        }
        if counts.semicolon > counts.comma && counts.semicolon >= counts.tab { return UInt8(ascii: ";") }
        if counts.tab > counts.comma && counts.tab > counts.semicolon { return UInt8(ascii: "\t") }
        return UInt8(ascii: ",")
    }
}
