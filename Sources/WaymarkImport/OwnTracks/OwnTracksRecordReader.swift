import WaymarkCore
import WaymarkGeoJSON
import WaymarkSources

/// Reads an OwnTracks Recorder `.rec` file (the Recorder's `rec/USER/DEVICE/YYYY-MM.rec`):
/// one message a line, `TIME<TAB>TOPIC<TAB>JSON`, where TIME is an RFC 3339 instant the
/// Recorder wrote, TOPIC is `*` or a topic suffix padded with spaces, and JSON is the message
/// as the app published it.
///
/// Each JSON payload is decoded by the same `OwnTracksDecoder` the HTTP listener uses:
/// `location` messages become fixes (`tst` is the fix's time; the line's own time is only
/// checked); every other kind (transition, waypoint, lwt, card, cmd…) is skipped and counted
/// in `skippedMessages`. Errors give the line and the column in it.
public struct OwnTracksRecordReader: HistoryReader {
    private let input: ImportInput
    private var pending: [Fix] = []

    /// Messages of kinds other than `location`, by `_type`: skipped.
    public private(set) var skippedMessages: [String: Int] = [:]

    public init(input: ImportInput) {
        self.input = input
    }

    public mutating func next() throws(ImportError) -> ImportedItem? {
        while true {
            if !pending.isEmpty { return .fix(pending.removeFirst()) }
            guard let line = try input.readLine() else { return nil }
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            try read(line)
        }
    }

    private mutating func read(_ line: [UInt8]) throws(ImportError) {
        guard let firstTab = line.firstIndex(of: 0x09) else {
            throw error(.syntax, "expected TIME, TAB, TOPIC, TAB, JSON; the line has no TAB", column: 1)
        }
        guard let secondTab = line[(firstTab + 1)...].firstIndex(of: 0x09) else {
            throw error(.syntax, "expected TIME, TAB, TOPIC, TAB, JSON; the line has one TAB", column: column(of: firstTab, in: line) + 1)
        }
        guard Timestamp(rfc3339: line[0..<firstTab]) != nil else {
            let text = String(decoding: line[0..<min(firstTab, 40)], as: UTF8.self)
            throw error(.invalidValue, "expected the Recorder's time (RFC 3339) before the first TAB, got \"\(text)\"", column: 1)
        }
        let json = Array(line[(secondTab + 1)...])
        let jsonColumn = column(of: secondTab + 1, in: line)
        let messages: [OwnTracksMessage]
        do {
            messages = try OwnTracksDecoder.decode(json)
        } catch {
            try skipOrThrow(error, json: json, jsonColumn: jsonColumn)
            return
        }
        for message in messages {
            switch message {
            case .location(let location): pending.append(location.fix)
            case .transition: skippedMessages["transition", default: 0] += 1
            case .waypoint: skippedMessages["waypoint", default: 0] += 1
            case .waypoints: skippedMessages["waypoints", default: 0] += 1
            case .lastWill: skippedMessages["lwt", default: 0] += 1
            case .beacon: skippedMessages["beacon", default: 0] += 1
            case .card: skippedMessages["card", default: 0] += 1
            case .unsupported(let type): skippedMessages[type, default: 0] += 1
            }
        }
    }

    /// A message the decoder refused: an error when it is a location (or not a message at
    /// all), skipped and counted when it is of a kind this reader does not read anyway.
    private mutating func skipOrThrow(_ failure: OwnTracksError, json: [UInt8], jsonColumn: Int) throws(ImportError) {
        if failure.code != .jsonSyntax, failure.code != .emptyBody, let root = try? JSONParser.parse(json),
            case .string(let type)? = root.member("_type")?.value, type != "location"
        {
            skippedMessages[type, default: 0] += 1
            return
        }
        let column = jsonColumn + max(failure.column, 1) - 1
        switch failure.code {
        case .jsonSyntax:
            // The decoder's message counts columns in the JSON; this one names the line's.
            var message = failure.message
            do { _ = try JSONParser.parse(json) } catch { message = error.message }
            throw self.error(.syntax, "invalid JSON: \(message)", column: column)
        case .emptyBody: throw error(.syntax, "expected a JSON message after the second TAB", column: column)
        default: throw error(.invalidValue, failure.description, column: column)
        }
    }

    /// The 1-based column, in Unicode scalars, of the byte at `index`.
    private func column(of index: Int, in line: [UInt8]) -> Int {
        line[0..<index].reduce(1) { $1 & 0xC0 == 0x80 ? $0 : $0 + 1 }
    }

    private func error(_ code: ImportError.Code, _ message: String, column: Int) -> ImportError {
        ImportError(code, message, file: input.name, position: .line(input.lineNumber, column: column))
    }
}
