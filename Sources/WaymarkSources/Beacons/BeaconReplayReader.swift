import WaymarkBeacons
import WaymarkCore
import WaymarkGeoJSON
import WaymarkRegions

/// Reads a beacon replay file (docs/beacons.md): JSON Lines, one advertisement a line, in time
/// order, streamed in constant memory.
///
/// ```
/// {"time":"2026-06-01T08:00:00.2Z","uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1,"minor":2,"rssi":-63,"measuredPower":-59}
/// {"time":"2026-06-01T08:00:00.4Z","hci":"043E2A0201030 …"}
/// ```
///
/// A line is either a decoded advertisement (`time`, `uuid`, `major`, `minor`, `rssi`,
/// `measuredPower`, all required) or a captured HCI event packet (`time`, `hci`: hexadecimal,
/// spaces allowed) that goes through `AdvertisementDecoder` like the socket's bytes; its
/// non-iBeacon reports are counted in `counts`. Blank lines are skipped. Times must not go
/// backwards. Any other problem is a `BeaconReplayError` at the line and column of the field.
public struct BeaconReplayReader {
    public let path: String
    private let file: LineFile
    private var previous: (time: Timestamp, line: Int)?
    private var decoder = AdvertisementDecoder()
    private var pending: [BeaconAdvertisement] = []
    private var pendingIndex = 0

    /// Lines read so far.
    public var lines: Int { file.lineNumber }
    private var lineNumber: Int { file.lineNumber }
    /// Advertisements accepted and frames ignored by reason.
    public var counts: AdvertisementCounts { decoder.counts }

    public init(path: String) throws(BeaconReplayError) {
        self.path = path
        do {
            file = try LineFile(path: path, what: "the beacon replay file")
        } catch {
            throw BeaconReplayError(code: .unreadable, message: error.message, location: error.location)
        }
    }

    /// Closes the file now (it is closed at the end, and when the last copy is released).
    public mutating func close() { file.close() }

    /// The next advertisement, or nil at the end of the file.
    public mutating func next() throws(BeaconReplayError) -> BeaconAdvertisement? {
        while true {
            if pendingIndex < pending.count {
                pendingIndex += 1
                return pending[pendingIndex - 1]
            }
            pending.removeAll(keepingCapacity: true)
            pendingIndex = 0
            let read: UnsafeBufferPointer<UInt8>?
            do {
                read = try file.next()
            } catch {
                // Reading failed, or a line over LineFile's 1 MiB: no beacon line is that long.
                throw BeaconReplayError(
                    code: error.code == .unreadable ? .unreadable : .jsonSyntax, message: error.message, location: error.location)
            }
            guard let bytes = read else { return nil }
            if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) { continue }
            try parse(Array(bytes))
        }
    }

    private mutating func parse(_ bytes: [UInt8]) throws(BeaconReplayError) {
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw BeaconReplayError(code: .jsonSyntax, message: error.message, location: location(error.column))
        }
        guard case .object(let members) = root.value else {
            throw BeaconReplayError(
                code: .jsonSyntax, message: "a line must be one JSON object; found a \(root.value.typeName)",
                location: location(of: root, in: bytes))
        }
        let known = ["time", "uuid", "major", "minor", "rssi", "measuredPower", "hci"]
        for member in members where !known.contains(member.key) {
            throw BeaconReplayError(
                code: .unknownField,
                message: "unknown field; a line has time, uuid, major, minor, rssi, measuredPower (or time and hci)",
                location: location(ofOffset: member.keyStart, in: bytes), field: member.key)
        }
        let line = Line(root: root, bytes: bytes, reader: self)
        let time = try line.time()
        if let previous, time < previous.time {
            throw BeaconReplayError(
                code: .timeGoesBackwards,
                message: "\(time.rfc3339) is earlier than \(previous.time.rfc3339) on line \(previous.line); lines must be in time order",
                location: line.location(of: "time"), field: "time")
        }
        previous = (time, lineNumber)
        if root.member("hci") != nil {
            for other in ["uuid", "major", "minor", "rssi", "measuredPower"] where root.member(other) != nil {
                throw BeaconReplayError(
                    code: .unknownField, message: "an hci line has only time and hci (the packet holds the rest)",
                    location: line.location(of: other), field: other)
            }
            let packet = try line.hex("hci")
            packet.withUnsafeBufferPointer { buffer in
                decoder.decode(hciPacket: buffer, time: time) { pending.append($0) }
            }
            return
        }
        guard let uuid = BeaconUUID(try line.string("uuid")) else {
            throw line.invalid("uuid", "must be 32 hexadecimal digits grouped 8-4-4-4-12, e.g. E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")
        }
        let advertisement = BeaconAdvertisement(
            time: time, uuid: uuid, major: UInt16(try line.integer("major", 0...65535)),
            minor: UInt16(try line.integer("minor", 0...65535)),
            measuredPower: Int8(try line.integer("measuredPower", -128...127)),
            rssi: Int8(try line.integer("rssi", -127...20)))
        decoder.countDecoded()
        pending.append(advertisement)
    }

    func location(_ column: Int) -> SourceLocation { SourceLocation(file: path, line: lineNumber, column: column) }

    func location(of node: JSONNode, in bytes: [UInt8]) -> SourceLocation { location(ofOffset: node.start, in: bytes) }

    /// Columns count Unicode scalars, as an editor shows them.
    func location(ofOffset offset: Int, in bytes: [UInt8]) -> SourceLocation {
        location(1 + bytes[..<offset].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) })
    }

    /// One line's fields, each read with its location for errors.
    private struct Line {
        let root: JSONNode
        let bytes: [UInt8]
        let reader: BeaconReplayReader

        func location(of field: String) -> SourceLocation {
            reader.location(of: root.member(field) ?? root, in: bytes)
        }

        func invalid(_ field: String, _ message: String) -> BeaconReplayError {
            BeaconReplayError(code: .invalidField, message: message, location: location(of: field), field: field)
        }

        func value(_ field: String) throws(BeaconReplayError) -> JSONValue {
            guard let node = root.member(field), !node.isNull else {
                throw BeaconReplayError(
                    code: .missingField, message: "missing; a line has time, uuid, major, minor, rssi and measuredPower",
                    location: reader.location(of: root, in: bytes), field: field)
            }
            return node.value
        }

        func string(_ field: String) throws(BeaconReplayError) -> String {
            let value = try value(field)
            guard case .string(let text) = value else { throw invalid(field, "is a \(value.typeName); expected a string") }
            return text
        }

        func time() throws(BeaconReplayError) -> Timestamp {
            guard let time = Timestamp(rfc3339: try string("time")) else {
                throw invalid("time", "is not an RFC 3339 time such as 2026-06-01T08:00:00.25Z")
            }
            return time
        }

        func integer(_ field: String, _ range: ClosedRange<Int>) throws(BeaconReplayError) -> Int {
            let value = try value(field)
            guard case .number(let number) = value, number == number.rounded(), number >= Double(range.lowerBound),
                number <= Double(range.upperBound)
            else {
                let found = if case .number(let number) = value { JSONObjectWriter.number(number) } else { "a \(value.typeName)" }
                throw invalid(field, "must be an integer \(range.lowerBound)…\(range.upperBound); found \(found)")
            }
            return Int(number)
        }

        func hex(_ field: String) throws(BeaconReplayError) -> [UInt8] {
            let digits = try string(field).unicodeScalars.filter { $0 != " " }
            var bytes: [UInt8] = []
            var high: UInt8?
            for scalar in digits {
                guard let nibble = UInt8(String(scalar), radix: 16) else {
                    throw invalid(field, "must be hexadecimal bytes (spaces allowed); found '\(scalar)'")
                }
                if let h = high {
                    bytes.append(h << 4 | nibble)
                    high = nil
                } else {
                    high = nibble
                }
            }
            guard high == nil, !bytes.isEmpty else { throw invalid(field, "must be whole bytes: an even number of hexadecimal digits") }
            return bytes
        }
    }
}
