import Testing
import WaymarkCore

@testable import WaymarkSources

/// Decoding single gpsd lines, as libgps unpacks them: no daemon needed.
struct GpsdReportTests {
    @Test(arguments: [
        (#"{"class":"TPV","mode":3}"#, "TPV"),
        (#"  {"class" : "SKY", "nSat":3}  "#, "SKY"),
        (#"{"class":"VERSION","release":"3.22"}"#, "VERSION"),
        (#"{"mode":3,"class":"TPV"}"#, "TPV"),
        (#"{"mode":3}"#, nil),
        (#"{"class":"TPV","mode":3"#, nil),
        (#""class":"TPV""#, nil),
        (#"{"class":3}"#, nil),
        (#"{"class":"T\"PV"}"#, nil),
        (#"{"class":""}"#, nil),
        ("$GPRMC,030851.00,V,,,,,,,100806,,,N*7D", nil),
        ("", nil),
    ] as [(String, String?)])
    func reportClassComesFromTheRawLine(line: String, expected: String?) {
        let found = Array(line.utf8).withUnsafeBufferPointer { GpsdReport.reportClass(of: $0) }
        #expect(found == expected)
    }

    @Test func threeDimensionalTPVKeepsAccuracyAndMetadata() throws {
        let line = #"{"class":"TPV","device":"tcp://127.0.0.1:1","mode":3,"time":"2026-03-26T03:10:08.000Z","ept":0.005,"lat":49.126355500,"lon":-122.710014667,"altHAE":54.0000,"altMSL":70.7000,"alt":70.7000,"epx":14.642,"epy":28.806,"epv":93.150,"track":220.8600,"magtrack":236.6508,"magvar":15.8,"speed":1.312,"geoidSep":-16.700,"eph":42.180,"sep":87.780}"#
        guard case .fix(let fix) = GpsdReport.decode(line: line) else {
            Issue.record("not a fix")
            return
        }
        #expect(fix.time == Timestamp(rfc3339: "2026-03-26T03:10:08Z"))
        #expect(fix.coordinate == Coordinate(latitude: 49.1263555, longitude: -122.710014667))
        #expect(fix.mode == .threeD)
        #expect(fix.altitude == 70.7)
        #expect(fix.horizontalAccuracy == 42.18)
        #expect(fix.verticalAccuracy == 93.15)
        #expect(fix.longitudeAccuracy == 14.642)
        #expect(fix.latitudeAccuracy == 28.806)
        #expect(fix.speed == 1.312)
        #expect(fix.course == 220.86)
        #expect(fix.satellites == nil)
    }

    @Test func missingValuesAreNilNotNaN() throws {
        let line = #"{"class":"TPV","mode":2,"lat":52.85,"lon":5.31}"#
        guard case .fix(let fix) = GpsdReport.decode(line: line) else {
            Issue.record("not a fix")
            return
        }
        #expect(fix.mode == .twoD)
        #expect(fix.time == nil)  // a GGA-only log gives TPVs without time
        #expect(fix.altitude == nil)
        #expect(fix.horizontalAccuracy == nil)
        #expect(fix.verticalAccuracy == nil)
        #expect(fix.latitudeAccuracy == nil)
        #expect(fix.longitudeAccuracy == nil)
        #expect(fix.speed == nil)
        #expect(fix.course == nil)
    }

    @Test(arguments: [0, 1])
    func modesWithoutASolutionAreGaps(mode: Int) {
        let line = #"{"class":"TPV","mode":\#(mode),"time":"2026-03-26T03:08:51.000Z","ept":0.005}"#
        guard case .noFix(let time, let reason) = GpsdReport.decode(line: line) else {
            Issue.record("not a gap")
            return
        }
        #expect(time == Timestamp(rfc3339: "2026-03-26T03:08:51Z"))
        #expect(reason.contains("mode \(mode)"))
    }

    @Test func aFixWithoutAPositionIsAGap() {
        guard case .noFix = GpsdReport.decode(line: #"{"class":"TPV","mode":3}"#) else {
            Issue.record("mode 3 without lat/lon should be a gap")
            return
        }
    }

    @Test func skyGivesSatellitesAndDilutionsToLaterFixes() {
        let line = #"{"class":"SKY","vdop":1.00,"hdop":9.93,"pdop":9.98,"nSat":3,"uSat":2,"satellites":[{"PRN":28,"el":28.0,"az":95.0,"ss":33.0,"used":true},{"PRN":4,"el":30.0,"az":150.0,"ss":46.0,"used":true},{"PRN":2,"el":7.0,"az":178.0,"ss":32.0,"used":false}]}"#
        guard case .sky(let sky) = GpsdReport.decode(line: line) else {
            Issue.record("not a SKY")
            return
        }
        #expect(sky == GpsdSky(satellitesUsed: 2, hdop: 9.93, vdop: 1.0, pdop: 9.98))
        let fix = sky.complete(Fix(time: nil, coordinate: Coordinate(latitude: 1, longitude: 2)))
        #expect(fix.satellites == 2)
        #expect(fix.hdop == 9.93)
    }

    @Test func garbageIsMalformedAndOtherClassesAreIgnored() {
        #expect(GpsdReport.decode(line: "\u{1}\u{2}garbage{") == .malformed)
        #expect(GpsdReport.decode(line: #"{"class":"TPV","mode":3,"lat":"#) == .malformed)
        #expect(GpsdReport.decode(line: #"{"class":"BOGUS","x":1}"#) == .ignored(className: "BOGUS"))
        #expect(GpsdReport.decode(line: #"{"class":"ERROR","message":"unrecognized"}"#) != .malformed)
    }

    @Test func backoffDoublesToItsCap() {
        let delays = (0..<7).map { Backoff.default.delay(attempt: $0) }
        #expect(
            delays == [
                .milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800), .seconds(1),
                .seconds(1), .seconds(1),
            ])
    }
}
