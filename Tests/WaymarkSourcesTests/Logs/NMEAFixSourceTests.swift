import Foundation
import Testing
import WaymarkCore
@testable import WaymarkSources
import WaymarkTestSupport

/// The NMEA reader on small logs written here: what makes a fix, and every way a line is
/// refused, with its line and column.
struct NMEAFixSourceTests {
    /// `body` as a sentence with its checksum: `$` + body + `*HH`.
    static func sentence(_ body: String) -> String {
        let checksum = body.utf8.reduce(UInt8(0), ^)
        return "$" + body + "*" + String(format: "%02X", checksum)
    }

    static func fixes(_ lines: [String]) throws -> [Fix] {
        let folder = try TemporaryDirectory()
        let path = try folder.write("log.nmea", lines.joined(separator: "\r\n") + "\r\n")
        var source = try NMEAFixSource(path: path)
        var fixes: [Fix] = []
        while let fix = try source.next() { fixes.append(fix) }
        return fixes
    }

    /// The error reading `lines` gives, as `line:column: message` without the file.
    static func error(_ lines: [String]) throws -> (code: TrackLogError.Code, text: String) {
        do {
            _ = try fixes(lines)
        } catch let error as TrackLogError {
            return (error.code, "\(error.location.line):\(error.location.column): \(error.message)")
        }
        Issue.record("no error")
        return (.noData, "")
    }

    static let rmc = sentence("GPRMC,081836.50,A,3751.6500,S,14507.3600,E,10.0,360.0,130998,011.3,E")
    static let gga = sentence("GPGGA,081836.50,3751.6500,S,14507.3600,E,1,08,0.9,545.4,M,46.9,M,,")
    static let gsa = sentence("GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1")
    static let gst = sentence("GPGST,081836.50,0.6,3.0,2.0,45.0,3.0,4.0,5.0")

    @Test func oneEpochsSentencesAreOneFix() throws {
        let fixes = try Self.fixes([Self.rmc, Self.gga, Self.gsa, Self.gst])
        #expect(fixes.count == 1)
        let fix = try #require(fixes.first)
        #expect(fix.time?.rfc3339 == "1998-09-13T08:18:36.5Z")
        #expect(abs(fix.coordinate.latitude - -(37 + 51.65 / 60)) < 1e-12)
        #expect(abs(fix.coordinate.longitude - (145 + 7.36 / 60)) < 1e-12)
        #expect(fix.altitude == 545.4)
        #expect(fix.satellites == 8)
        #expect(fix.mode == .threeD)
        #expect(fix.hdop == 1.3)
        #expect(fix.pdop == 2.5)
        #expect(fix.vdop == 2.1)
        #expect(abs(fix.speed! - 10 * 1852 / 3600) < 1e-12)
        #expect(fix.course == 360)
        #expect(fix.latitudeAccuracy == 3 && fix.longitudeAccuracy == 4 && fix.verticalAccuracy == 5)
        #expect(fix.horizontalAccuracy == 5)
    }

    @Test func withoutGSTThereIsNoAccuracy() throws {
        // HDOP is not an error in metres; none is made up.
        let fix = try #require(try Self.fixes([Self.rmc, Self.gga]).first)
        #expect(fix.horizontalAccuracy == nil)
        #expect(fix.hdop == 0.9)
    }

    @Test func beforeAnyDateFixesAreUntimed() throws {
        let fixes = try Self.fixes([
            Self.sentence("GPGGA,235958,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
            Self.sentence("GPGGA,235959,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
            Self.sentence("GPZDA,235959,31,12,2025,00,00"),
            Self.sentence("GPGGA,000000,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
        ])
        #expect(fixes.map { $0.time?.rfc3339 } == [nil, "2025-12-31T23:59:59Z", "2026-01-01T00:00:00Z"])
    }

    @Test func invalidSentencesGiveNoFixAndAreNotChecked() throws {
        let fixes = try Self.fixes([
            Self.sentence("GPRMC,071732.929,V,8960.0000,N,00000.0000,E,0.00,0.00,111111,,,N"),
            Self.sentence("GPGGA,071733.929,8960.0000,N,00000.0000,E,0,0,,137.0,M,13.0,M,,"),
            Self.sentence("GPGGA,071734,4023.8600,N,00339.1630,W,8,09,2.0,695.7,M,51.6,M,,"),
            Self.sentence("GPGLL,4023.8600,N,00339.1630,W,071735,V,S"),
        ])
        #expect(fixes.isEmpty)
    }

    @Test func otherLinesAndCommentsAreSkipped() throws {
        let fixes = try Self.fixes(["# a header", "", "\u{B5}b\u{01}\u{07} binary", "   " + Self.rmc, "!AIVDM,1,1,,A,13aEOK?P00PD2wVMdLDRhgvL289?,0*26"])
        #expect(fixes.count == 1)
    }

    @Test func aFileWithoutSentencesIsAnError() throws {
        let result = try Self.error(["# only a comment", "hello"])
        #expect(result.code == .noData)
        #expect(result.text.hasSuffix("no NMEA sentence (a line starting with $) in the file"))
    }

    @Test func aWrongChecksumIsLocated() throws {
        let result = try Self.error([Self.rmc, "$GPGGA,081837,3751.65,S,14507.36,E,1,08,0.9,545.4,M,46.9,M,,*00"])
        #expect(result.code == .badChecksum)
        #expect(result.text == "2:62: checksum 00 does not match the sentence's 51")
    }

    @Test func aMalformedChecksumIsLocated() throws {
        let result = try Self.error(["$GPGSA,A,1,,,,,,,,,,,,,,,*1"])
        #expect(result.code == .badChecksum)
        #expect(result.text == "1:27: checksum '1' is not two hexadecimal digits")
    }

    @Test func aSentenceWithoutChecksumIsTaken() throws {
        #expect(try Self.fixes(["$GPRMC,081836.50,A,3751.6500,S,14507.3600,E,10.0,360.0,130998,011.3,E"]).count == 1)
    }

    @Test func aControlCharacterIsLocated() throws {
        let result = try Self.error(["$GPRMC,0818\u{07}36,A*00"])
        #expect(result.code == .badCharacter)
        #expect(result.text == "1:12: byte 0x07 in a sentence; NMEA 0183 is printable ASCII")
    }

    @Test(arguments: [
        ("GPRMC,081836,A,3760.0000,S,14507.36,E,1.0,0.0,130998,,", "1:17: RMC latitude '3760.0000' has minutes of 60 or more"),
        ("GPRMC,081836,A,9100.0000,S,14507.36,E,1.0,0.0,130998,,", "1:17: RMC latitude '9100.0000' is beyond 90°"),
        ("GPRMC,081836,A,37x1.0000,S,14507.36,E,1.0,0.0,130998,,", "1:17: RMC latitude '37x1.0000' is not ddmm.mmmm"),
        ("GPRMC,081836,A,3751.0000,Q,14507.36,E,1.0,0.0,130998,,", "1:27: RMC latitude hemisphere 'Q' is not one of N, S"),
        ("GPRMC,081836,A,3751.0000,,14507.36,E,1.0,0.0,130998,,", "1:27: RMC latitude 3751.0000 has no hemisphere (N or S)"),
        ("GPRMC,081836,A,3751.0000,S,18100.00,E,1.0,0.0,130998,,", "1:29: RMC longitude '18100.00' is beyond 180°"),
        ("GPRMC,251836,A,3751.0000,S,14507.36,E,1.0,0.0,130998,,", "1:8: RMC time '251836' is not a time of day"),
        ("GPRMC,08:18:36,A,3751.0000,S,14507.36,E,1.0,0.0,130998,,", "1:8: RMC time '08:18:36' is not hhmmss.ss"),
        ("GPRMC,081836,A,3751.0000,S,14507.36,E,fast,0.0,130998,,", "1:40: RMC speed 'fast' is not a number"),
        ("GPRMC,081836,A,3751.0000,S,14507.36,E,1.0,0.0,310298,,", "1:48: RMC date '310298' is not a calendar date"),
        ("GPRMC,081836,X,3751.0000,S,14507.36,E,1.0,0.0,130998,,", "1:15: RMC status 'X' is not one of A, V"),
        ("GPGGA,081836,3751.0000,S,14507.36,E,one,08,0.9,545.4,M,46.9,M,,", "1:38: GGA quality 'one' is not a whole number"),
        ("GPZDA,081836,13,09,1066,00,00", "1:21: ZDA year 1066 is outside 1980…2199"),
    ])
    func aMalformedFieldIsLocated(body: String, expected: String) throws {
        let result = try Self.error([Self.sentence(body)])
        #expect(result.code == .badField)
        #expect(result.text == expected)
    }

    @Test func anUntimedSentenceIsCheckedInItsEpoch() throws {
        let result = try Self.error([Self.rmc, Self.sentence("GPGSA,A,7,04,05,,09,12,,,24,,,,,2.5,1.3,2.1")])
        #expect(result.code == .badField)
        #expect(result.text == "2:10: GSA fix type 7 is not 1, 2 or 3")
    }

    @Test func aTooLongLineIsRefused() throws {
        let result = try Self.error([Self.rmc, String(repeating: "x", count: LineFile.maximumLineLength + 1)])
        #expect(result.code == .tooLong)
        #expect(result.text.hasPrefix("2:1: a line of"))
    }

    @Test func aMissingFileIsUnreadable() throws {
        #expect(throws: TrackLogError.self) { _ = try NMEAFixSource(path: "/nonexistent/log.nmea") }
    }
}
