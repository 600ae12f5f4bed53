import Logging
import WaymarkCore
import WaymarkImport
import WaymarkPipeline
import WaymarkStore

/// `waymark import` and `POST /v1/imports`: files into one device's history (docs/import.md).
///
/// 1. **List** the inputs (`ImportSources`): formats from content; an input named directly that
///    is no history format fails here, before anything is written.
/// 2. **Check** each file's SHA-256: a file an earlier import read whole for this device is not
///    read again (`reread` reads it anyway); the digests together find an interrupted import of
///    the same files, which is taken up rather than begun again.
/// 3. **Read** each entry as a stream, in chunks of `chunkSize` items, one transaction a chunk
///    (`WaymarkStore.writeImportChunk`): fixes already held (same device, time and position) are
///    counted, not added. A file that fails part-way keeps its whole chunks and the error.
/// 4. **Evaluate** the new fixes in time order through a pipeline of their own (`ImportEvaluation`).
///
/// Blocking (SQLite, files): run it on a thread of its own, never on the cooperative pool.
public struct HistoryImporter: Sendable {
    let store: WaymarkStore
    let clock: any WallClock
    let logger: Logger

    public init(store: WaymarkStore, clock: any WallClock = SystemWallClock(), logger: Logger) {
        self.store = store
        self.clock = clock
        self.logger = logger
    }

    /// Runs `request`; `pipeline` is the device's (its regions, settings and subscriptions) in
    /// its initial state. `progress` is called after every chunk and page.
    public func run(_ request: ImportRequest, pipeline: DevicePipeline, progress: (ImportProgress) -> Void = { _ in }) throws -> ImportOutcome {
        let started = clock.now
        let columns = try request.columns.map { text throws(ImportError) in try CSVColumns(parsing: text) }
        let listing = try ImportSources.entries(for: request.paths, format: columns == nil ? nil : .csv)
        var state = ImportProgress(phase: .checking)
        func report(_ update: (inout ImportProgress) -> Void) {
            update(&state)
            state.elapsed = clock.now.seconds(since: started)
            progress(state)
        }

        let files = Self.files(of: listing.entries)
        var digests: [String: String] = [:]
        state.bytesTotal = Int64(files.reduce(0) { $0 + $1.size })
        for file in files {
            digests[file.path] = try FileDigest.sha256(path: file.path) { read in report { $0.bytesRead += Int64(read) } }
        }
        let fingerprint = FileDigest.sha256(text: ([request.device] + files.map { digests[$0.path]! }).joined(separator: "\n"))
        let (begun, resumed) = try store.beginImport(
            device: request.device, sources: request.paths, fingerprint: fingerprint, deliver: request.deliver,
            bytesTotal: state.bytesTotal, at: started)
        let id = begun.id
        let bytesTotal = state.bytesTotal
        report {
            $0 = ImportProgress(phase: .reading)
            $0.importID = id
            $0.bytesTotal = bytesTotal
            $0.fixesAdded = begun.fixesAdded
            $0.fixesPresent = begun.fixesPresent
            $0.reported = begun.reported
        }

        var outcome = ImportOutcome(record: begun, resumed: resumed, alreadyImported: [], skipped: listing.skipped.map { ($0.name, $0.reason) }, failures: [])
        for file in files {
            let digest = digests[file.path]!
            if let earlier = try store.importedFile(device: request.device, digest: digest), earlier.importID == id || !request.reread {
                // Read whole before: by an earlier import (its fixes count as present), or by
                // this one before it was interrupted (already counted).
                let present = earlier.importID == id ? 0 : earlier.fixesAdded + earlier.fixesPresent
                try store.countSkippedImportFile(importID: id, present: present, bytes: Int64(file.size))
                if earlier.importID != id { outcome.alreadyImported.append(file.path) }
                report {
                    $0.fixesPresent += present
                    $0.bytesRead += Int64(file.size)
                }
                continue
            }
            try store.beginImportFile(id, name: file.path, digest: digest, size: Int64(file.size))
            var failure: ImportError?
            for entry in file.entries {
                do {
                    try read(entry, of: file, importID: id, request: request, columns: columns, report: report)
                } catch let error as ImportError where error.code == .unknownFormat && !entry.wasNamed {
                    // A Takeout archive holds other products' JSON: passed over, as detection passes over HTML.
                    outcome.skipped.append((entry.name, error.message))
                } catch let error as ImportError {
                    failure = error
                    break
                }
            }
            if let failure {
                logger.info("Import stopped reading a file", metadata: ["file": "\(file.path)", "error": "\(failure)"])
                outcome.failures.append(failure)
            }
            try store.finishImportFile(id, name: file.path, error: failure?.description)
        }

        report { $0.phase = .evaluating }
        let evaluation = ImportEvaluation(store: store, importID: id, device: request.device, quiet: !request.deliver, pageSize: request.chunkSize)
        try evaluation.run(pipeline: pipeline) { fixes, events in
            report {
                $0.fixesEvaluated = fixes
                $0.events = events
            }
        }
        let failed = outcome.failures.first?.description
        try store.setImportState(id, failed == nil ? .done : .failed, error: failed, at: clock.now)
        outcome.record = try store.importRecord(id) ?? begun
        report {
            $0.phase = .done
            $0.fixesAdded = outcome.record.fixesAdded
            $0.fixesPresent = outcome.record.fixesPresent
            $0.reported = outcome.record.reported
            $0.events = outcome.record.events
        }
        return outcome
    }

    /// The regular files the entries come from, in order, each with its entries.
    static func files(of entries: [ImportEntry]) -> [ImportFile] {
        var files: [ImportFile] = []
        for entry in entries {
            if let last = files.indices.last, files[last].path == entry.origin {
                files[last].entries.append(entry)
            } else {
                files.append(ImportFile(path: entry.origin, size: entry.originSize, entries: [entry]))
            }
        }
        return files
    }
}
