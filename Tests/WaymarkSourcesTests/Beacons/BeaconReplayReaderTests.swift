import Foundation
import Testing
import WaymarkBeacons
import WaymarkCore
import WaymarkRegions
import WaymarkSources
import WaymarkTestSupport

/// The beacon replay file: JSON Lines of advertisements or captured HCI packets, errors at
/// `file:line:column` naming the field.
@Suite struct BeaconReplayReaderTests {
    static let line1 = #"{"time":"2026-06-01T08:00:00Z","uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1,"minor":2,"rssi":-63,"measuredPower":-59}"#

    static func read(_ text: String) throws -> (advertisements: [BeaconAdvertisement], reader: BeaconReplayReader) {
        let directory = try TemporaryDirectory()
        let path = directory.path("beacons.jsonl")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        var reader = try BeaconReplayReader(path: path)
        var found: [BeaconAdvertisement] = []
        while let advertisement = try reader.next() { found.append(advertisement) }
        return (found, reader)
    }

    @Test func decodedLinesAndCapturedHCIPacketsBothGiveAdvertisements() throws {
        let hci = "04 3E 2A 02 01 03 00 EC F8 00 EE F3 0C 1E 02 01 04 1A FF 4C 00 02 15 8D EE FB B9 F7 38 42 97 80 40 96 66 8B B4 42 81 13 88 0F 4E C1 BB"
        let eddystone = "043E29020100 01F553E0AA15E5 1D 020106 0303AAFE 1516AAFE00DFEDD1EBEAC04E5DEFA017E515AAE053F5 CB"
        let text = Self.line1 + "\n\n" + #"{"time":"2026-06-01T08:00:00.5Z","hci":"\#(hci)"}"# + "\n"
            + #"{"time":"2026-06-01T08:00:00.5Z","hci":"\#(eddystone)"}"# + "\n"
        let (found, reader) = try Self.read(text)
        #expect(found.map(\.major) == [1, 5000])
        #expect(found[0] == BeaconAdvertisement(
            time: Timestamp(rfc3339: "2026-06-01T08:00:00Z")!, uuid: BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!,
            major: 1, minor: 2, measuredPower: -59, rssi: -63))
        #expect(found[1].rssi == -69)
        #expect(reader.counts.accepted == 2)
        #expect(reader.counts.rejected == ["noManufacturerData": 1])
        #expect(reader.lines == 4)
    }

    struct Bad: Sendable, CustomTestStringConvertible {
        var line: String
        /// Where the error points: the first occurrence of this text in the line (nil: column 1).
        var at: String?
        var field: String?
        var message: String
        var testDescription: String { "\(field ?? "-"): \(message)" }
    }

    @Test(
        "a bad second line is reported at its line and column, naming the field",
        arguments: [
            Bad(line: #"{"time":"2026-06-01T08:00:01Z","uuid":"E2C56DB5","major":1,"minor":2,"rssi":-63,"measuredPower":-59}"#,
                at: #""E2C56DB5""#, field: "uuid", message: "8-4-4-4-12"),
            Bad(line: #"{"time":"2026-06-01T08:00:01Z","uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":70000,"minor":2,"rssi":-63,"measuredPower":-59}"#,
                at: "70000", field: "major", message: "0…65535; found 70000"),
            Bad(line: #"{"time":"2026-06-01T08:00:01Z","uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1,"minor":2,"rssi":-63,"measuredPower":-200}"#,
                at: "-200", field: "measuredPower", message: "-128…127"),
            Bad(line: #"{"time":"2026-06-01T08:00:01Z","uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1,"minor":2,"rssi":"-63","measuredPower":-59}"#,
                at: #""-63""#, field: "rssi", message: "found a string"),
            Bad(line: #"{"time":"2026-06-01T08:00:01Z","uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1,"rssi":-63,"measuredPower":-59}"#,
                at: nil, field: "minor", message: "missing"),
            Bad(line: #"{"time":"yesterday","uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1,"minor":2,"rssi":-63,"measuredPower":-59}"#,
                at: #""yesterday""#, field: "time", message: "RFC 3339"),
            Bad(line: #"{"time":"2026-06-01T07:59:59Z","uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1,"minor":2,"rssi":-63,"measuredPower":-59}"#,
                at: #""2026-06-01T07"#, field: "time", message: "earlier than 2026-06-01T08:00:00Z on line 1"),
            Bad(line: #"{"time":"2026-06-01T08:00:01Z","uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","mjr":1}"#,
                at: #""mjr""#, field: "mjr", message: "unknown field"),
            Bad(line: #"{"time":"2026-06-01T08:00:01Z","hci":"04 3E 2"}"#, at: #""04 3E 2""#, field: "hci", message: "whole bytes"),
            Bad(line: #"{"time":"2026-06-01T08:00:01Z","uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0",}"#, at: ",}", field: nil,
                message: "expected a member name"),
            Bad(line: "[1, 2]", at: nil, field: nil, message: "one JSON object"),
        ])
    func badLine(_ c: Bad) throws {
        do {
            _ = try Self.read(Self.line1 + "\n" + c.line + "\n" + Self.line1)
            Issue.record("accepted \(c.line)")
        } catch let error as BeaconReplayError {
            #expect(error.location.line == 2)
            let column = c.at.flatMap { c.line.firstRange(of: $0) }.map { c.line.unicodeScalars[..<$0.lowerBound].count + 1 } ?? 1
            #expect(error.location.column == column + (c.at == ",}" ? 1 : 0), "\(error)")
            #expect(error.field == c.field)
            #expect(error.message.contains(c.message), "\(error.message)")
            #expect(error.description.hasPrefix(error.location.description + ": " + (c.field.map { $0 + ": " } ?? "")))
        }
    }

    @Test func aMissingFileSaysSo() {
        #expect {
            _ = try BeaconReplayReader(path: "/nonexistent/beacons.jsonl")
        } throws: { error in
            (error as? BeaconReplayError)?.description == "/nonexistent/beacons.jsonl: cannot open the beacon replay file: No such file or directory"
        }
    }
}
