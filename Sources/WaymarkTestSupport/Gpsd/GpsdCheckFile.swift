import Foundation
import WaymarkCore

/// A TPV report from a gpsd regression `.chk` file: what gpsd 3.22 emitted for a log.
public struct ExpectedTPV: Sendable, Equatable {
    /// The `time` member; `nil` when gpsd gave none.
    public var time: Timestamp?
    /// gpsd's mode: 0 not seen, 1 no fix, 2 2D, 3 3D.
    public var mode: Int
    /// Degrees; `nil` without a fix.
    public var latitude: Double?
    public var longitude: Double?
    /// `altMSL`, else `altHAE`, metres.
    public var altitude: Double?
    /// Metres.
    public var eph: Double?
    public var epv: Double?
    public var epx: Double?
    public var epy: Double?
    /// Metres per second.
    public var speed: Double?
    /// Degrees from true north.
    public var track: Double?

    /// Whether the report is a fix (mode 2 or 3).
    public var isFix: Bool { mode >= 2 }
}

/// Reads gpsd's expected output: one JSON object per line, interleaved with the NMEA input
/// (lines not starting with `{`, skipped).
public enum GpsdCheckFile {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Every TPV report in the file, in order.
    public static func tpvReports(at url: URL) throws -> [ExpectedTPV] {
        // Split bytes, not Characters: the NMEA lines end in CR LF, one grapheme in Swift.
        let bytes = try Data(contentsOf: url)
        var reports: [ExpectedTPV] = []
        for (index, line) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated()
        where line.first == UInt8(ascii: "{") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else {
                throw Failure(description: "\(url.path):\(index + 1): not a JSON object")
            }
            guard object["class"] as? String == "TPV" else { continue }
            func number(_ key: String) -> Double? { (object[key] as? NSNumber)?.doubleValue }
            var time: Timestamp?
            if let text = object["time"] as? String {
                guard let parsed = Timestamp(rfc3339: text) else {
                    throw Failure(description: "\(url.path):\(index + 1): bad time \(text)")
                }
                time = parsed
            }
            reports.append(
                ExpectedTPV(
                    time: time, mode: (object["mode"] as? NSNumber)?.intValue ?? 0,
                    latitude: number("lat"), longitude: number("lon"),
                    altitude: number("altMSL") ?? number("altHAE"),
                    eph: number("eph"), epv: number("epv"), epx: number("epx"), epy: number("epy"),
                    speed: number("speed"), track: number("track")))
        }
        return reports
    }
}
