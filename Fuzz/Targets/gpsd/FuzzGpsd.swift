import CGPS
@testable import WaymarkSources

#if canImport(Glibc)
import Glibc
#endif

/// Fuzzes the reading of gpsd's JSON reports (WaymarkSources/Gpsd) the way
/// `GpsdClientLoop.serve` does it for each line in its inbox. The loop first checks the line
/// with `JSONLineCheck.isOneObject` and skips it unless it is one JSON object. Only TPV and SKY
/// reports in gpsd's own shape (`JSONLineCheck.isPlainReport`) go to libgps' `gps_unpack`, with
/// `PACKET_SET` cleared and on a NUL-terminated copy. Every accepted line is then classified and
/// decoded by `GpsdReport.decode`, and a SKY report completes later fixes.
///
/// The input is a stretch of the stream. It is cut at newlines, and a carriage return before a
/// newline is dropped, as `takeLine` does. A line of `messageCapacity` bytes or more ends the
/// input, as it ends the connection. One `gps_data_t` serves all the lines of an input, as the
/// loop's does.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let memory = calloc(1, MemoryLayout<gps_data_t>.size) else { return 0 }
    defer { free(memory) }
    let gps = memory.bindMemory(to: gps_data_t.self, capacity: 1)
    var sky: GpsdSky?
    for rawLine in UnsafeBufferPointer(start: data, count: size).split(separator: 0x0A, omittingEmptySubsequences: false) {
        guard rawLine.count < GpsdClientLoop.messageCapacity else { break }
        var line = Array(rawLine)
        if line.last == 0x0D { line.removeLast() }
        let (accepted, plain) = line.withUnsafeBufferPointer {
            (JSONLineCheck.isOneObject($0), JSONLineCheck.isPlainReport($0, classes: ["TPV", "SKY"]))
        }
        guard accepted else { continue }
        if plain {
            var copy = line + [0]
            gps.pointee.set &= ~gps_mask_t(PACKET_SET)
            _ = copy.withUnsafeMutableBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { gps_unpack($0.baseAddress, gps) }
            }
        }
        let report = line.withUnsafeBufferPointer { GpsdReport.decode(message: $0, data: gps) }
        switch report {
        case .fix(let fix): _ = sky?.complete(fix) ?? fix
        case .sky(let value): sky = value
        case .device(let device): _ = roster(device)
        case .noFix, .error, .ignored, .malformed: break
        }
    }
    return 0
}

/// What the client loop does with DEVICE and DEVICES reports: the receivers' comings and goings.
nonisolated(unsafe) private var receivers = ReceiverRoster()

private func roster(_ report: GpsdDeviceReport) -> Int {
    switch report {
    case .device(let path, let activated): receivers.device(path, activated: activated) == nil ? 0 : 1
    case .devices(let paths): receivers.list(paths).count
    }
}
