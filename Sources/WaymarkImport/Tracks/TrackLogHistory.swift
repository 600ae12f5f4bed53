import WaymarkCore
import WaymarkSources

/// A line-based track log reader (NMEA, gpsd JSON) as `waymark replay` uses it.
protocol TrackLogSource {
    var tally: LogTally { get }
    mutating func nextLogFix() throws(TrackLogError) -> Fix?
}

extension NMEAFixSource: TrackLogSource {
    mutating func nextLogFix() throws(TrackLogError) -> Fix? { try next() }
}

extension GpsdLogFixSource: TrackLogSource {
    mutating func nextLogFix() throws(TrackLogError) -> Fix? { try next() }
}

/// A track log's timed fixes as history: untimed fixes skipped and counted, errors as import
/// errors under the input's name, and a log without one timed fix refused with `refusal`.
struct TrackLogHistory<Source: TrackLogSource> {
    private var source: Source
    private let name: String
    private let refusal: (LogTally) -> String
    private var failure: ImportError?
    private(set) var fixCount = 0

    init(_ source: Source, name: String, refusal: @escaping (LogTally) -> String) {
        self.source = source
        self.name = name
        self.refusal = refusal
    }

    var untimedCount: Int { source.tally.untimedFixes }
    var otherLines: Int { source.tally.otherLines }

    mutating func next() throws(ImportError) -> ImportedItem? {
        if let failure { throw failure }
        do {
            while let fix = try source.nextLogFix() {
                guard fix.time != nil else { continue }
                fixCount += 1
                return .fix(fix)
            }
        } catch {
            failure = ImportError(error, file: name)
            throw failure!
        }
        guard fixCount == 0 else { return nil }
        failure = ImportError(.unsupported, refusal(source.tally), file: name)
        throw failure!
    }
}
