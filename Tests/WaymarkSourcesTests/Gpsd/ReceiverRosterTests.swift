import Testing
@testable import WaymarkSources

/// gpsd's DEVICE and DEVICES reports, as gpsd 3.22 writes them (captured from a real gpsd), and
/// the receivers' comings and goings the source tells from them.
struct ReceiverRosterTests {
    static func decode(_ line: String) -> GpsdDeviceReport? {
        let bytes = Array(line.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            GpsdReport.reportClass(of: buffer).flatMap { GpsdDeviceReport.decode(buffer, className: $0) }
        }
    }

    @Test func gpsdsReportsDecode() {
        #expect(
            Self.decode(#"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"tcp://127.0.0.1:47001","activated":"2026-11-26T11:09:07.912Z"}]}"#)
                == .devices(["tcp://127.0.0.1:47001"]))
        #expect(
            Self.decode(#"{"class":"DEVICE","path":"/dev/ttyACM0","driver":"NMEA0183","activated":"2026-11-26T11:09:07.913Z"}"#)
                == .device(path: "/dev/ttyACM0", activated: true))
        #expect(Self.decode(#"{"class":"DEVICE","path":"/dev/ttyACM0","activated":0}"#) == .device(path: "/dev/ttyACM0", activated: false))
        // A listed device that is not open is not active.
        #expect(Self.decode(#"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyUSB0"}]}"#) == .devices([]))
        #expect(Self.decode(#"{"class":"DEVICE","activated":0}"#) == nil)
        #expect(Self.decode(#"{"class":"DEVICES","devices":7}"#) == nil)
    }

    @Test func theFirstListIsLearntAndLaterChangesReported() {
        var roster = ReceiverRoster()
        #expect(roster.list(["/dev/ttyACM0"]).isEmpty)
        #expect(roster.device("/dev/ttyACM0", activated: true) == nil)
        #expect(roster.device("/dev/ttyACM0", activated: false).map { [$0.path: $0.attached] } == ["/dev/ttyACM0": false])
        #expect(roster.device("/dev/ttyACM0", activated: false) == nil)
        #expect(roster.device("/dev/ttyUSB1", activated: true).map { [$0.path: $0.attached] } == ["/dev/ttyUSB1": true])
        // Reconnected to gpsd: the new list against what was known.
        let changes = roster.list(["/dev/ttyACM0"])
        #expect(changes.map(\.path) == ["/dev/ttyACM0", "/dev/ttyUSB1"])
        #expect(changes.map(\.attached) == [true, false])
    }

    @Test func aDeviceReportBeforeAnyListIsLearnt() {
        var roster = ReceiverRoster()
        #expect(roster.device("/dev/ttyACM0", activated: true) == nil)
        #expect(roster.device("/dev/ttyACM0", activated: false)?.attached == false)
    }
}
