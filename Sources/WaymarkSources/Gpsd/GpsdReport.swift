import CGPS
import WaymarkCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One line from gpsd, classified by its `class` member and decoded from what libgps unpacked.
///
/// The class is read from the raw JSON, never inferred from `gps_data_t.set`: a SKY report
/// leaves the previous TPV's bits set, so deciding by bits alone reports each fix twice.
enum GpsdReport: Equatable {
    /// A TPV with a 2D or 3D solution (satellites and dilutions still to be filled in from the
    /// last SKY report).
    case fix(Fix)
    /// A TPV without a solution.
    case noFix(time: Timestamp?, reason: String)
    /// A SKY report: what later fixes take their satellite count and dilutions from.
    case sky(GpsdSky)
    /// A DEVICE or DEVICES report: a receiver opened or closed, or the list of open ones.
    case device(GpsdDeviceReport)
    /// gpsd's ERROR report, with its message.
    case error(String)
    /// A well-formed report of a class this source does not use (VERSION, DEVICES, WATCH, …).
    case ignored(className: String)
    /// Not a JSON object with a `class`: garbage, a truncated line.
    case malformed

    /// Decodes `message`, the raw line as gpsd sent it, with the values libgps unpacked
    /// from it into `data`.
    static func decode(message: UnsafeBufferPointer<UInt8>, data: UnsafePointer<gps_data_t>) -> GpsdReport {
        guard let className = reportClass(of: message) else { return .malformed }
        switch className {
        case "TPV": return tpv(data.pointee.fix)
        case "SKY": return .sky(GpsdSky(data.pointee))
        case "ERROR": return .error(String(decoding: message, as: UTF8.self))
        case "DEVICE", "DEVICES":
            return GpsdDeviceReport.decode(message, className: className).map { .device($0) } ?? .ignored(className: className)
        default: return .ignored(className: className)
        }
    }

    /// The value of the `class` member of the JSON object on `line`, or `nil` when the line is
    /// not a complete JSON object (`{` … `}`) with a string `class`. gpsd writes `class` first;
    /// this takes the first `"class"` key wherever it is.
    static func reportClass(of line: UnsafeBufferPointer<UInt8>) -> String? {
        var start = 0
        var end = line.count
        while start < end, isSpace(line[start]) { start += 1 }
        while end > start, isSpace(line[end - 1]) { end -= 1 }
        guard end - start >= 2, line[start] == UInt8(ascii: "{"), line[end - 1] == UInt8(ascii: "}") else {
            return nil
        }
        let key = Array("\"class\"".utf8)
        var index = start + 1
        while index + key.count <= end {
            if line[index] == key[0], zip(key.indices, index...).allSatisfy({ line[$1] == key[$0] }) {
                var cursor = index + key.count
                while cursor < end, isSpace(line[cursor]) { cursor += 1 }
                guard cursor < end, line[cursor] == UInt8(ascii: ":") else { return nil }
                cursor += 1
                while cursor < end, isSpace(line[cursor]) { cursor += 1 }
                guard cursor < end, line[cursor] == UInt8(ascii: "\"") else { return nil }
                let nameStart = cursor + 1
                var nameEnd = nameStart
                while nameEnd < end, line[nameEnd] != UInt8(ascii: "\"") {
                    let byte = line[nameEnd]
                    // Class names are short ASCII words; anything else is not gpsd's.
                    guard byte == UInt8(ascii: "_") || (byte >= 0x30 && byte <= 0x39)
                        || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    else { return nil }
                    nameEnd += 1
                }
                guard nameEnd < end, nameEnd > nameStart else { return nil }
                return String(decoding: UnsafeBufferPointer(rebasing: line[nameStart..<nameEnd]), as: UTF8.self)
            }
            index += 1
        }
        return nil
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// A TPV's solution. Modes 2 and 3 with a finite position are fixes; everything else is a
    /// gap. `fix.status` is not consulted: gpsd 3.22 leaves it out of plain fixes.
    static func tpv(_ fix: gps_fix_t) -> GpsdReport {
        let time = timestamp(fix.time)
        let mode: FixMode
        switch fix.mode {
        case MODE_2D: mode = .twoD
        case MODE_3D: mode = .threeD
        case MODE_NO_FIX: return .noFix(time: time, reason: "no fix (gpsd mode 1)")
        default: return .noFix(time: time, reason: "no fix yet (gpsd mode \(fix.mode))")
        }
        let coordinate = Coordinate(latitude: fix.latitude, longitude: fix.longitude)
        guard coordinate.isValid else {
            return .noFix(time: time, reason: "mode \(fix.mode) report without a valid position")
        }
        return .fix(
            Fix(
                time: time, coordinate: coordinate,
                altitude: finite(fix.altMSL) ?? finite(fix.altHAE),
                horizontalAccuracy: finite(fix.eph), verticalAccuracy: finite(fix.epv),
                mode: mode, speed: finite(fix.speed), course: finite(fix.track),
                latitudeAccuracy: finite(fix.epy), longitudeAccuracy: finite(fix.epx)))
    }

    /// gpsd's time, or `nil` when the report had none (both fields zero, e.g. GGA-only logs) or
    /// one a `Timestamp` cannot hold (nanoseconds since 1970 in 64 bits: 1677 to 2262; gpsd
    /// passes on whatever year a receiver or a hostile peer sends, found by fuzzing).
    static func timestamp(_ time: timespec) -> Timestamp? {
        if time.tv_sec == 0 && time.tv_nsec == 0 { return nil }
        let (seconds, overflow) = Int64(time.tv_sec).multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return nil }
        let (nanoseconds, beyond) = seconds.addingReportingOverflow(Int64(time.tv_nsec))
        return beyond ? nil : Timestamp(nanosecondsSince1970: nanoseconds)
    }
}

/// What the last SKY report said about the solution: satellites used and dilutions.
struct GpsdSky: Equatable {
    var satellitesUsed: Int?
    var hdop: Double?
    var vdop: Double?
    var pdop: Double?

    init(satellitesUsed: Int?, hdop: Double?, vdop: Double?, pdop: Double?) {
        self.satellitesUsed = satellitesUsed
        self.hdop = hdop
        self.vdop = vdop
        self.pdop = pdop
    }

    init(_ data: gps_data_t) {
        // libgps counts the `used` satellites of the report (gpsd 3.22's `uSat`).
        satellitesUsed = data.satellites_visible > 0 || data.satellites_used > 0 ? Int(data.satellites_used) : nil
        hdop = finite(data.dop.hdop)
        vdop = finite(data.dop.vdop)
        pdop = finite(data.dop.pdop)
    }

    /// `fix` with the satellite count and dilutions this report gives and the fix lacks.
    func complete(_ fix: Fix) -> Fix {
        var fix = fix
        fix.satellites = fix.satellites ?? satellitesUsed
        fix.hdop = fix.hdop ?? hdop
        fix.vdop = fix.vdop ?? vdop
        fix.pdop = fix.pdop ?? pdop
        return fix
    }
}

/// gpsd marks missing values with NaN; they become `nil`.
func finite(_ value: Double) -> Double? { value.isFinite ? value : nil }

extension GpsdReport {
    /// Decodes one line as the reader thread does, unpacking it with libgps into a scratch
    /// `gps_data_t` (for tests; the reader thread and a gpsd log reuse their own).
    static func decode(line: String) -> GpsdReport {
        let scratch = GpsdScratch()
        return Array(line.utf8).withUnsafeBufferPointer { scratch.decode($0) }
    }
}

/// A `gps_data_t` for decoding lines one after another (24 KB: allocated once, not per line).
final class GpsdScratch {
    private let data = UnsafeMutablePointer<gps_data_t>.allocate(capacity: 1)
    /// libgps parses a writable, NUL-terminated copy of the line.
    private var copy: [CChar] = []

    init() { data.initialize(to: gps_data_t()) }

    deinit { data.deallocate() }

    /// `line` unpacked by libgps, then classified: ``GpsdReport/decode(message:data:)``.
    func decode(_ line: UnsafeBufferPointer<UInt8>) -> GpsdReport {
        copy.removeAll(keepingCapacity: true)
        copy.append(contentsOf: line.lazy.map { CChar(bitPattern: $0) })
        copy.append(0)
        data.pointee.set &= ~gps_mask_t(PACKET_SET)
        _ = copy.withUnsafeMutableBufferPointer { gps_unpack($0.baseAddress, data) }
        return GpsdReport.decode(message: line, data: data)
    }
}
