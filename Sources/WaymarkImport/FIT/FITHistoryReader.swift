import WaymarkCore

/// Reads the positions of a FIT file (Garmin's Flexible and Interoperable Data Transfer
/// protocol: sport watches, bike computers): every `record` message with a position becomes
/// a fix. docs/import/fit-csv-owntracks.md describes the format and what is kept.
///
/// The file is read message by message and checked as it goes: the header (and its CRC when
/// it has one), each definition and data message against the data size the header gives,
/// and the file CRC after the data. Several FIT files in one input (a chained FIT file) are
/// read one after another. Errors name the byte offset.
public struct FITHistoryReader: HistoryReader {
    private let input: ImportInput
    private var definitions = [FITDefinition?](repeating: nil, count: 16)
    /// The last timestamp (field 253 or a compressed one) in the current FIT file, which
    /// compressed timestamp headers count from.
    private var lastTimestamp: UInt32?
    private var crc = FITCRC()
    /// Where the current FIT file's header starts and its data ends; nil between files.
    private var fileStart = 0
    private var dataEnd: Int?
    private var files = 0
    private var fixes = 0
    private var fileType: UInt8?
    private var finished = false

    /// `record` messages without a position (an indoor activity, a pause): skipped.
    public private(set) var recordsWithoutPosition = 0
    /// `record` messages with a position but no time (no timestamp before a compressed one,
    /// or a time counted from the device's power-on, below 0x10000000): skipped.
    public private(set) var recordsWithoutTime = 0

    /// Seconds from 1970-01-01 to the FIT epoch, 1989-12-31T00:00:00Z.
    static let epoch: Int64 = 631_065_600
    /// Degrees per semicircle: 2^31 semicircles make 180°.
    static let degreesPerSemicircle = 180.0 / 2_147_483_648.0

    public init(input: ImportInput) {
        self.input = input
    }

    public mutating func next() throws(ImportError) -> ImportedItem? {
        while !finished {
            guard let dataEnd else {
                if files > 0, try input.isAtEnd() {
                    finished = true
                    if fixes == 0 { throw noPositions() }
                    return nil
                }
                try readHeader()
                continue
            }
            if input.offset == dataEnd {
                try checkFileCRC()
                self.dataEnd = nil
                continue
            }
            if let fix = try readMessage(dataEnd: dataEnd) {
                fixes += 1
                return .fix(fix)
            }
        }
        return nil
    }

    // MARK: - File header and CRC

    private mutating func readHeader() throws(ImportError) {
        let start = input.offset
        let available = try input.require(12)
        if available == 0 && files == 0 {
            throw error(.unknownFormat, "the file is empty; expected a FIT file header", at: start)
        }
        guard available >= 12 else {
            throw error(.truncated, "the input ends \(available) bytes into a FIT file header", at: start)
        }
        let bytes = input.unread
        guard bytes[8] == 0x2E, bytes[9] == 0x46, bytes[10] == 0x49, bytes[11] == 0x54 else {
            if files == 0 {
                throw error(.unknownFormat, "no \".FIT\" signature at bytes 8–11: not a FIT file", at: start + 8)
            }
            throw error(
                .syntax, "after the FIT file ending at byte \(start), bytes that are not another FIT file header "
                    + "(no \".FIT\" at bytes \(start + 8)–\(start + 11))", at: start)
        }
        let headerSize = Int(bytes[0])
        guard headerSize >= 12 else {
            throw error(.syntax, "the FIT header size is \(headerSize) bytes; it is at least 12", at: start)
        }
        guard try input.require(headerSize) >= headerSize else {
            throw error(.truncated, "the input ends inside the \(headerSize)-byte FIT header", at: start)
        }
        let header = UnsafeBufferPointer(rebasing: input.unread[0..<headerSize])
        if headerSize >= 14 {
            let stored = UInt16(header[12]) | UInt16(header[13]) << 8
            let computed = FITCRC.of(UnsafeBufferPointer(rebasing: header[0..<12]))
            if stored != 0 && stored != computed {
                throw error(
                    .syntax, "header CRC mismatch: bytes \(start + 12)–\(start + 13) hold \(hex(stored)), "
                        + "bytes \(start)–\(start + 11) give \(hex(computed))", at: start + 12)
            }
        }
        let dataSize = Int(header[4]) | Int(header[5]) << 8 | Int(header[6]) << 16 | Int(header[7]) << 24
        crc = FITCRC()
        crc.update(header)
        input.advance(by: headerSize)
        fileStart = start
        dataEnd = start + headerSize + dataSize
        definitions = [FITDefinition?](repeating: nil, count: 16)
        lastTimestamp = nil
        files += 1
    }

    private mutating func checkFileCRC() throws(ImportError) {
        let at = input.offset
        guard try input.require(2) >= 2 else {
            throw error(.truncated, "the input ends before the file CRC at bytes \(at)–\(at + 1)", at: at)
        }
        let bytes = input.unread
        let stored = UInt16(bytes[0]) | UInt16(bytes[1]) << 8
        guard stored == crc.value else {
            throw error(
                .syntax, "file CRC mismatch: bytes \(at)–\(at + 1) hold \(hex(stored)), "
                    + "bytes \(fileStart)–\(at - 1) give \(hex(crc.value))", at: at)
        }
        input.advance(by: 2)
    }

    // MARK: - Messages

    /// Reads one definition or data message; returns the fix a `record` message gives.
    private mutating func readMessage(dataEnd: Int) throws(ImportError) -> Fix? {
        let start = input.offset
        guard try input.require(1) >= 1 else {
            throw error(.truncated, "the input ends at byte \(start); the FIT header says the data runs to byte \(dataEnd)", at: start)
        }
        let header = input.unread[0]
        if header & 0x80 != 0 {
            // Compressed timestamp header: local type in bits 5–6, seconds in bits 0–4.
            return try readData(local: Int(header >> 5 & 0x03), timeOffset: UInt32(header & 0x1F), start: start, dataEnd: dataEnd)
        }
        if header & 0x40 != 0 {
            try readDefinition(local: Int(header & 0x0F), hasDeveloperFields: header & 0x20 != 0, start: start, dataEnd: dataEnd)
            return nil
        }
        return try readData(local: Int(header & 0x0F), timeOffset: nil, start: start, dataEnd: dataEnd)
    }

    /// Buffers a message of `count` bytes at `start`, checking it ends within the data.
    private func requireMessage(_ count: Int, start: Int, dataEnd: Int, what: String) throws(ImportError) {
        guard start + count <= dataEnd else {
            throw error(
                .syntax, "the \(what) at byte \(start) (\(count) bytes) runs past the end of the FIT data at byte \(dataEnd)",
                at: start)
        }
        let available = try input.require(count)
        guard available >= count else {
            throw error(.truncated, "the input ends \(available) bytes into the \(count)-byte \(what) at byte \(start)", at: start)
        }
    }

    private mutating func readDefinition(local: Int, hasDeveloperFields: Bool, start: Int, dataEnd: Int) throws(ImportError) {
        try requireMessage(6, start: start, dataEnd: dataEnd, what: "definition message")
        var bytes = input.unread
        let architecture = bytes[2]
        guard architecture <= 1 else {
            throw error(
                .syntax, "the definition message at byte \(start) gives architecture \(architecture) "
                    + "(0 little-endian or 1 big-endian)", at: start + 2)
        }
        let bigEndian = architecture == 1
        let global = bigEndian ? UInt16(bytes[3]) << 8 | UInt16(bytes[4]) : UInt16(bytes[4]) << 8 | UInt16(bytes[3])
        let fieldCount = Int(bytes[5])
        var size = 6 + 3 * fieldCount
        if hasDeveloperFields {
            try requireMessage(size + 1, start: start, dataEnd: dataEnd, what: "definition message")
            size += 1 + 3 * Int(input.unread[size])
        }
        try requireMessage(size, start: start, dataEnd: dataEnd, what: "definition message")
        bytes = input.unread
        var definition = FITDefinition(globalNumber: global, bigEndian: bigEndian)
        for index in 0..<fieldCount {
            let at = 6 + 3 * index
            definition.add(number: bytes[at], size: Int(bytes[at + 1]), baseType: bytes[at + 2])
        }
        if hasDeveloperFields {
            let developerStart = 7 + 3 * fieldCount
            for index in 0..<Int(bytes[developerStart - 1]) {
                definition.addDeveloperField(size: Int(bytes[developerStart + 3 * index + 1]))
            }
        }
        definitions[local] = definition
        crc.update(UnsafeBufferPointer(rebasing: bytes[0..<size]))
        input.advance(by: size)
    }

    private mutating func readData(local: Int, timeOffset: UInt32?, start: Int, dataEnd: Int) throws(ImportError) -> Fix? {
        guard let definition = definitions[local] else {
            throw error(
                .syntax, "the data message at byte \(start) has local message type \(local), which no definition message "
                    + "has defined", at: start)
        }
        let size = 1 + definition.size
        try requireMessage(size, start: start, dataEnd: dataEnd, what: "data message")
        let bytes = UnsafeBufferPointer(rebasing: input.unread[0..<size])
        crc.update(bytes)
        defer { input.advance(by: size) }
        let message = bytes.baseAddress! + 1
        var time: UInt32?
        if let timeOffset, let last = lastTimestamp {
            // The offset is the low five bits of the new time; a smaller one has rolled over.
            var resolved = (last & ~0x1F) &+ timeOffset
            if timeOffset < last & 0x1F { resolved &+= 0x20 }
            time = resolved
        }
        if let field = definition.timestamp, let value = field.value(in: message, bigEndian: definition.bigEndian) {
            time = UInt32(exactly: value)
        }
        if let time { lastTimestamp = time }
        if definition.globalNumber == FITDefinition.fileID, let field = definition.fileType {
            fileType = field.value(in: message, bigEndian: definition.bigEndian).flatMap { UInt8(exactly: $0) }
            if fileType == 6 {
                throw error(
                    .unsupported, "this FIT file is a course (file type 6): a planned route, not a recorded history",
                    at: start)
            }
        }
        guard definition.globalNumber == FITDefinition.record else { return nil }
        return try fix(definition, message, time: time, start: start)
    }

    private mutating func fix(_ definition: FITDefinition, _ message: UnsafePointer<UInt8>, time: UInt32?, start: Int) throws(ImportError) -> Fix? {
        let bigEndian = definition.bigEndian
        guard let latitude = definition.latitude?.value(in: message, bigEndian: bigEndian),
            let longitude = definition.longitude?.value(in: message, bigEndian: bigEndian)
        else {
            recordsWithoutPosition += 1
            return nil
        }
        // Below 0x10000000 a FIT time counts seconds from the device's power-on, not the epoch.
        guard let time, time >= 0x1000_0000 else {
            recordsWithoutTime += 1
            return nil
        }
        let coordinate = Coordinate(
            latitude: latitude * Self.degreesPerSemicircle, longitude: longitude * Self.degreesPerSemicircle)
        guard coordinate.isValid else {
            throw error(
                .invalidValue, "the record at byte \(start) has position_lat \(coordinate.latitude)°, "
                    + "outside −90…90", at: start)
        }
        var fix = Fix(time: Timestamp(nanosecondsSince1970: (Self.epoch + Int64(time)) * 1_000_000_000), coordinate: coordinate)
        if let altitude = (definition.enhancedAltitude ?? definition.altitude)?.value(in: message, bigEndian: bigEndian)
            ?? definition.altitude?.value(in: message, bigEndian: bigEndian)
        {
            fix.altitude = altitude / 5 - 500
        }
        if let speed = (definition.enhancedSpeed ?? definition.speed)?.value(in: message, bigEndian: bigEndian)
            ?? definition.speed?.value(in: message, bigEndian: bigEndian)
        {
            fix.speed = speed / 1000
        }
        fix.horizontalAccuracy = definition.gpsAccuracy?.value(in: message, bigEndian: bigEndian)
        return fix
    }

    // MARK: - Errors

    private func noPositions() -> ImportError {
        let kind = fileType.map { " (file type \($0)\($0 == 4 ? ", an activity" : ""))" } ?? ""
        let records = recordsWithoutPosition + recordsWithoutTime
        return ImportError(
            .unsupported, "the FIT file\(kind) has no record message with a position and a time"
                + (records > 0 ? " (\(records) record message\(records == 1 ? "" : "s") without one: an indoor activity?)" : ""),
            file: input.name)
    }

    private func error(_ code: ImportError.Code, _ message: String, at offset: Int) -> ImportError {
        ImportError(code, message, file: input.name, position: .byteOffset(offset))
    }

    private func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: 4 - digits.count) + digits
    }
}
