import WaymarkCore
import WaymarkSources

/// The timed fixes of a gpsd JSON log (`gpspipe -w`), through the reader `waymark replay` uses
/// (``GpsdLogFixSource``): each TPV with a 2D or 3D solution, completed from the last SKY, with
/// the same errors at the same lines and columns. TPVs without a time are skipped and counted
/// in ``untimedCount``; a log with no timed fix is refused (`unsupported`).
public struct GpsdLogHistoryReader: HistoryReader {
    private var history: TrackLogHistory<GpsdLogFixSource>

    /// Fixes returned so far.
    public var fixCount: Int { history.fixCount }
    /// Fixes skipped for having no time.
    public var untimedCount: Int { history.untimedCount }
    /// Lines that are not gpsd reports (raw NMEA interleaved by `gpspipe -r`).
    public var otherLines: Int { history.otherLines }

    /// Opens the gpsd log at `path`; `name` is the file's name in errors.
    public init(path: String, name: String) throws(ImportError) {
        do {
            history = TrackLogHistory(try GpsdLogFixSource(path: path), name: name, refusal: Self.refusal)
        } catch {
            throw ImportError(error, file: name)
        }
    }

    public mutating func next() throws(ImportError) -> ImportedItem? { try history.next() }

    private static func refusal(_ tally: LogTally) -> String {
        tally.fixes == 0
            ? "no TPV report with a 2D or 3D fix in the log (the receiver never had one)"
            : "no fix has a time: \(tally.fixes) TPV report\(tally.fixes == 1 ? "" : "s") without one; a history needs times"
    }
}
