import Foundation
import GRDB
import Synchronization
import WaymarkCore
import WaymarkTestSupport

@testable import WaymarkStore

/// Values and helpers the writer tests share.
enum WriterSample {
    /// Drill fix `n` (timed, moving, with accuracy), as a write.
    static func fix(_ n: Int, source: String = "writer-test") -> HistoryWrite {
        .fix(HistoryWriterDrill.fix(n), source: source)
    }

    /// An untimed fix: the store refuses it.
    static let untimed = HistoryWrite.fix(Fix(time: nil, coordinate: Coordinate(latitude: 48, longitude: 11)), source: "writer-test")

    /// A fix at latitude 91: the schema's CHECK refuses it.
    static let latitude91 = HistoryWrite.fix(
        Fix(time: HistoryWriterDrill.startTime, coordinate: Coordinate(latitude: 91, longitude: 11)), source: "writer-test")

    /// A fresh SpatiaLite file store in `folder`.
    static func fileStore(_ folder: TemporaryDirectory, _ name: String = "writer.sqlite") throws -> WaymarkStore {
        try WaymarkStore(path: folder.path(name), logger: quietLogger)
    }
}

/// Collects values from completions (which run on the writer thread).
final class Collected<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])

    func append(_ value: Value) { values.withLock { $0.append(value) } }
    var all: [Value] { values.withLock { $0 } }
}

extension WaymarkStore {
    /// `(id, time_ns, latitude, source)` of every fix, by id (tests only).
    func fixRows() throws -> [(id: Int64, time: Int64, latitude: Double, source: String)] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT id, time_ns, latitude, source FROM fixes ORDER BY id").map {
                ($0["id"], $0["time_ns"], $0["latitude"], $0["source"])
            }
        }
    }
}
