import WaymarkCore
import WaymarkSources

/// The timed fixes of an NMEA 0183 log, through the reader `waymark replay` uses
/// (``NMEAFixSource``): one fix per epoch with a valid position, the same fields and the same
/// errors at the same lines and columns.
///
/// A fix's date comes from RMC or ZDA; a log of GGA or GLL sentences alone gives times of day
/// without a date, which are no instant: such fixes are skipped and counted in
/// ``untimedCount``, and a log with no dated fix is refused (`unsupported`).
public struct NMEAHistoryReader: HistoryReader {
    private var history: TrackLogHistory<NMEAFixSource>

    /// Fixes returned so far.
    public var fixCount: Int { history.fixCount }
    /// Fixes skipped for having no date.
    public var untimedCount: Int { history.untimedCount }
    /// Lines that are not NMEA sentences (a receiver's binary protocol, a logger's text).
    public var otherLines: Int { history.otherLines }

    /// Opens the NMEA log at `path`; `name` is the file's name in errors.
    public init(path: String, name: String) throws(ImportError) {
        do {
            history = TrackLogHistory(try NMEAFixSource(path: path), name: name, refusal: Self.refusal)
        } catch {
            throw ImportError(error, file: name)
        }
    }

    public mutating func next() throws(ImportError) -> ImportedItem? { try history.next() }

    private static func refusal(_ tally: LogTally) -> String {
        tally.fixes == 0
            ? "no position fix in the log (the receiver never had one)"
            : "no fix has a date: \(tally.fixes) fix\(tally.fixes == 1 ? "" : "es") with a time of day only "
                + "(GGA or GLL without RMC or ZDA); a history needs dates"
    }
}
