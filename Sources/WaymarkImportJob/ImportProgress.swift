/// How far an import has got: what a progress bar, a `--json` line and `GET /v1/imports/{id}` show.
public struct ImportProgress: Sendable, Equatable {
    public enum Phase: String, Sendable, Equatable {
        /// Reading every input once to know it (SHA-256): a file read whole before is not read again.
        case checking
        /// Reading files, adding fixes chunk by chunk.
        case reading
        /// Running the new fixes through the device's pipeline in time order.
        case evaluating
        case done
    }

    public var importID: Int64?
    public var phase: Phase
    /// The entry being read (`archive.zip:inner/file.json`).
    public var file: String?
    /// Bytes read of all inputs (compressed bytes for archives), and their total.
    public var bytesRead: Int64 = 0
    public var bytesTotal: Int64?
    /// Items read from the files so far (fixes and reported visits and activities).
    public var itemsRead: Int64 = 0
    public var fixesAdded: Int64 = 0
    public var fixesPresent: Int64 = 0
    public var reported: Int64 = 0
    /// Fixes evaluated, of `fixesAdded`, and the events they gave.
    public var fixesEvaluated: Int64 = 0
    public var events: Int64 = 0
    /// Seconds since the import started.
    public var elapsed: Double = 0

    public init(phase: Phase) { self.phase = phase }

    /// Bytes a second so far.
    public var rate: Double { elapsed > 0 ? Double(bytesRead) / elapsed : 0 }

    /// Seconds left at the rate so far, when the total is known.
    public var remaining: Double? {
        guard let bytesTotal, rate > 0, bytesTotal >= bytesRead else { return nil }
        return Double(bytesTotal - bytesRead) / rate
    }
}
