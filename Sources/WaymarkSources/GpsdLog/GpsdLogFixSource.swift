import WaymarkCore
import WaymarkGeoJSON

/// The fixes of a gpsd JSON log: `gpspipe -w` output, one report a line, with or without the
/// raw NMEA `gpspipe -r` interleaves (skipped: the reports say the same). Each TPV with a 2D or
/// 3D solution is a fix, completed with the satellites and dilutions of the last SKY report,
/// as the live gpsd source does (the same decoding, through libgps).
///
/// gpsd reports one epoch in several TPVs as the receiver's sentences arrive, each more
/// complete; consecutive TPVs with the same time are one fix, the last of them. A line that is
/// not one JSON object, or a TPV or SKY not in gpsd's shape, is a ``TrackLogError`` at its line
/// and column.
public struct GpsdLogFixSource: FixSource {
    private let file: LineFile
    private let scratch = GpsdScratch()
    private var sky: GpsdSky?
    private var pending: Fix?
    private var reports = 0
    /// Fixes returned and lines skipped so far.
    public private(set) var tally = LogTally()

    public init(path: String) throws(TrackLogError) { file = try LineFile(path: path) }

    public mutating func next() throws(TrackLogError) -> Fix? {
        while let line = try file.next() {
            guard let fix = try report(line) else { continue }
            if let held = pending, held.time == nil || held.time != fix.time {
                pending = fix
                return tally.returning(held)
            }
            pending = fix
        }
        if let held = pending {
            pending = nil
            return tally.returning(held)
        }
        if reports == 0 && tally.fixes == 0 {
            throw TrackLogError(
                code: .noData, message: "no gpsd report (a line starting with {) in the file",
                location: SourceLocation(file: file.path, line: max(file.lineNumber, 1), column: 1))
        }
        return nil
    }

    /// The fix on `line`, if it is a TPV with a solution.
    private mutating func report(_ line: UnsafeBufferPointer<UInt8>) throws(TrackLogError) -> Fix? {
        var start = 0
        while start < line.count, line[start] == 0x20 || line[start] == 0x09 { start += 1 }
        guard start < line.count, line[start] != UInt8(ascii: "#") else { return nil }
        if line[start] == UInt8(ascii: "$") || line[start] == UInt8(ascii: "!") {
            tally.otherLines += 1
            return nil
        }
        guard line[start] == UInt8(ascii: "{"), JSONLineCheck.isOneObject(line) else {
            throw syntaxError(line)
        }
        reports += 1
        guard let className = GpsdReport.reportClass(of: line), className == "TPV" || className == "SKY" else {
            return nil
        }
        guard JSONLineCheck.isPlainReport(line, classes: ["TPV", "SKY"]) else {
            throw TrackLogError(
                code: .badJSON, message: "a \(className) report must have \"class\" first and only once, as gpsd writes it",
                location: file.location(column: start + 1))
        }
        switch scratch.decode(line) {
        case .fix(let fix): return sky?.complete(fix) ?? fix
        case .sky(let report): sky = report
        default: break
        }
        return nil
    }

    /// Where and why `line` is not one JSON object.
    private func syntaxError(_ line: UnsafeBufferPointer<UInt8>) -> TrackLogError {
        let message: String
        var column = 1
        do {
            let node = try JSONParser.parse(Array(line))
            message = "a line must be one JSON object (a gpsd report); found a \(node.value.typeName)"
        } catch {
            message = error.message
            column = error.column
        }
        return TrackLogError(code: .badJSON, message: message, location: file.location(column: column))
    }
}
