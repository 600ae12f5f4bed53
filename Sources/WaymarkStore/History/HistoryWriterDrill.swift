import Logging
import WaymarkCore

/// The store's half of `waymark debug write-fixes --db PATH --count N`: a child process the
/// durability test kills with SIGKILL while it writes.
///
/// It opens (or creates) the store at `dbPath` and records `count` fixes one at a time through
/// `recordFix`, exactly the daemon's write path. After each commit it writes the fix's row id
/// and a newline to `output` and flushes it, so every id a reader has seen is an
/// acknowledged commit. Fix `n` (from 0) is at 2024-01-01T00:00:00Z + n s, latitude
/// 48 + n·10⁻⁶ mod 1°, longitude 11 + n·10⁻⁶ mod 1°, with altitude, accuracy, DOPs,
/// satellites, mode 3d, speed and course, from source `drill`.
public enum HistoryWriterDrill {
    /// The first fix's time: 2024-01-01T00:00:00Z.
    public static let startTime = Timestamp(nanosecondsSince1970: 1_704_067_200_000_000_000)

    /// The drill's fix number `n`.
    public static func fix(_ n: Int) -> Fix {
        let step = Double(n % 1_000_000) * 1e-6
        return Fix(
            time: startTime.adding(seconds: Double(n)),
            coordinate: Coordinate(latitude: 48 + step, longitude: 11 + step),
            altitude: 500 + Double(n % 100), horizontalAccuracy: 3.5, verticalAccuracy: 7.25,
            hdop: 0.9, vdop: 1.4, pdop: 1.7, satellites: 9, mode: .threeD, speed: 1.5, course: Double(n % 360))
    }

    /// Records `count` fixes one per transaction, writing each acknowledged row id to `output`
    /// (flushed) as soon as it is committed.
    ///
    /// - Throws: `StoreError` from opening the store or recording; errors from `output`.
    public static func run(dbPath: String, count: Int, output: some TextSink, logger: Logger) throws {
        var output = output
        let store = try WaymarkStore(path: dbPath, logger: logger)
        for n in 0..<max(0, count) {
            let id = try store.recordFix(fix(n), source: "drill")
            try output.write("\(id)\n")
            try output.flush()
        }
    }
}
