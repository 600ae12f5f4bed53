import Foundation
import WaymarkCore
import WaymarkImport

/// The small sample files beside these tests, and draining a reader of them.
enum SampleReading {
    /// `Samples/<relativePath>` in this test target.
    static func url(_ relativePath: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Samples/" + relativePath)
    }

    static func bytes(_ relativePath: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url(relativePath)))
    }

    /// Every fix a reader returns before its end or its first error, and that error.
    static func drain<Reader: HistoryReader>(_ reader: inout Reader) -> (fixes: [Fix], error: ImportError?) {
        var fixes: [Fix] = []
        do {
            while let item = try reader.next() {
                if case .fix(let fix) = item { fixes.append(fix) }
            }
            return (fixes, nil)
        } catch {
            return (fixes, error)
        }
    }

    /// Reads every item of a large generated input without keeping them, through a file (so
    /// the input streams it through its buffer): how many fixes, and the last.
    static func streamed<Reader: HistoryReader>(
        _ bytes: [UInt8], suffix: String, _ makeReader: (ImportInput) -> Reader
    ) throws -> (count: Int, last: Fix?) {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("large-\(UUID().uuidString).\(suffix)")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        var reader = makeReader(try ImportInput(path: url.path))
        var count = 0
        var last: Fix?
        while let item = try reader.next() {
            if case .fix(let fix) = item {
                count += 1
                last = fix
            }
        }
        return (count, last)
    }

    /// `2023-11-14T22:13:20Z` plus `seconds`: the samples' start.
    static func time(_ seconds: Int64) -> Timestamp {
        Timestamp(nanosecondsSince1970: (1_700_000_000 + seconds) * 1_000_000_000)
    }
}
