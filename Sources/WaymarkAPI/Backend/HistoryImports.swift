import Foundation
import Hummingbird
import Logging
import Synchronization
import WaymarkCore
import WaymarkImport
import WaymarkImportJob
import WaymarkPipeline
import WaymarkStore

/// `POST /v1/imports` and `GET /v1/imports[/{id}]` over a daemon's store (docs/import.md): each
/// uploaded file is imported by `HistoryImporter` on a thread of its own (it blocks on files and
/// SQLite, so never on the cooperative pool), its progress is kept here while it runs, and the
/// file is deleted when the import ends, done or failed.
///
/// One import per device at a time: two imports of the same bytes at once would take up the
/// same stored import.
public final class HistoryImports: Sendable {
    /// Where uploads are streamed to, one private folder each (`<database folder>/imports`, 0700).
    public let uploads: String
    let store: WaymarkStore
    let subscribers: [Subscriber]
    let settings: PipelineSettings
    let logger: Logger
    let clock: any WallClock
    private let state = Mutex(State())

    private struct State {
        /// The imports under way, by device (reserved before their upload is read).
        var running: [String: Job] = [:]
        /// How the imports that ended in this process ended (their skipped entries and
        /// failures, which the store does not keep), by id; the newest `keptOutcomes`.
        var outcomes: [Int64: ImportOutcome] = [:]
    }

    private struct Job {
        var folder: String
        var progress: ImportProgress?
    }

    static let keptOutcomes = 100

    /// - Parameters:
    ///   - uploads: the folder for uploads (created 0700 on the first one), one folder
    ///     `device-NAME` in it per running import. Such folders found now were left by a process
    ///     that stopped mid-import, and are deleted: their imports resume when the same bytes are
    ///     uploaded again.
    ///   - subscribers, settings: the device pipeline the imported fixes run through (the
    ///     configuration's subscriptions and pipeline settings), with the store's regions at
    ///     the time of each import.
    public init(
        store: WaymarkStore, uploads: String, subscribers: [Subscriber] = [], settings: PipelineSettings = .standard,
        clock: any WallClock = SystemWallClock(), logger: Logger
    ) {
        self.store = store
        self.uploads = uploads
        self.subscribers = subscribers
        self.settings = settings
        self.clock = clock
        self.logger = logger
        // Only the upload folders this class makes: anything else a person put there stays.
        for leftover in (try? FileManager.default.contentsOfDirectory(atPath: uploads)) ?? [] where leftover.hasPrefix("device-") {
            try? FileManager.default.removeItem(atPath: uploads + "/" + leftover)
        }
    }

    /// A device's place for one upload: its private folder, until `start` or `release`.
    public struct Slot: Sendable {
        public let device: String
        public let folder: String
    }

    /// Reserves `device` for one import and makes its upload folder. Throws 409 `import-running`
    /// while another import for the device runs in this process.
    public func reserve(device: String) throws -> Slot {
        let taken: (Int64?, String?) = state.withLock { state in
            if let job = state.running[device] { return (job.progress?.importID, nil) }
            // The same for each upload of the device (one runs at a time), so the same bytes
            // under the same name resume an interrupted import file by file, as the same command does.
            let folder = "\(uploads)/device-\(device)"
            state.running[device] = Job(folder: folder)
            return (nil, folder)
        }
        guard let folder = taken.1 else {
            let which = taken.0.map { "import \($0)" } ?? "an import"
            throw APIError(
                .conflict, code: "import-running",
                message: "\(which) into device \"\(device)\" is running; wait for it to end (GET /v1/imports?device=\(device))")
        }
        do {
            try PrivateFolder.create(uploads)
            try PrivateFolder.create(folder)
        } catch {
            release(Slot(device: device, folder: folder))
            throw APIError(.internalServerError, code: "upload-folder", message: "\(error)")
        }
        return Slot(device: device, folder: folder)
    }

    /// Gives a slot back without importing (the upload failed): its folder is deleted.
    public func release(_ slot: Slot) {
        try? FileManager.default.removeItem(atPath: slot.folder)
        state.withLock { _ = $0.running.removeValue(forKey: slot.device) }
    }

    /// Imports `request` (its file in `slot`'s folder) on a thread of its own; returns its progress as soon
    /// as the import has begun in the store (it has an id). Throws `APIError` for an import
    /// refused before anything was written: 415 `unknown-format`, 422 for a file that cannot be
    /// read. The folder goes when the import ends.
    public func start(_ request: ImportRequest, slot: Slot, name: String) async throws -> ImportProgress {
        let began = Once<Result<ImportProgress, any Error>>()
        return try await withCheckedThrowingContinuation { continuation in
            began.set { continuation.resume(with: $0) }
            let thread = Thread { [self] in
                Thread.current.name = "waymark.import"
                run(request, slot: slot, name: name, began: began)
            }
            thread.start()
        }
    }

    private func run(_ request: ImportRequest, slot: Slot, name: String, began: Once<Result<ImportProgress, any Error>>) {
        var id: Int64?
        // Before a refusal is answered, so a client that reads the answer finds the folder gone
        // and the device free for its next upload.
        let end = { [self] in
            try? FileManager.default.removeItem(atPath: slot.folder)
            state.withLock { _ = $0.running.removeValue(forKey: slot.device) }
        }
        defer {
            end()
            began.fire(.failure(APIError(.internalServerError, code: "import", message: "the import ended before it began")))
        }
        do {
            let pipeline = DevicePipeline(regions: try store.regions(), subscribers: subscribers, settings: settings)
            let outcome = try HistoryImporter(store: store, clock: clock, logger: logger).run(request, pipeline: pipeline) { progress in
                state.withLock { $0.running[slot.device]?.progress = progress }
                if id == nil, let begun = progress.importID {
                    id = begun
                    began.fire(.success(progress))
                }
            }
            end()
            state.withLock { state in
                state.outcomes[outcome.record.id] = outcome
                if state.outcomes.count > Self.keptOutcomes, let oldest = state.outcomes.keys.min() { state.outcomes[oldest] = nil }
            }
            logger.info("Import ended", metadata: ["import.id": "\(outcome.record.id)", "import.summary": "\(outcome.summary)"])
        } catch let error as ImportError where id == nil {
            end()
            began.fire(.failure(Self.refusal(error, uploads: slot.folder, name: name)))
        } catch {
            guard let id else {
                end()
                return began.fire(.failure(error))
            }
            // The importer stopped on a store error: the record says so, rather than "reading" for ever.
            logger.error("Import failed", metadata: ["import.id": "\(id)", "error": "\(error)"])
            try? store.setImportState(id, .failed, error: "\(error)", at: clock.now)
        }
    }

    /// An import refused before it began, as the API answers it: the upload's name in place of
    /// its path, and where in the file.
    static func refusal(_ error: ImportError, uploads folder: String, name: String) -> APIError {
        var error = error
        error.file = shown(error.file, folder: folder)
        var details: [(key: String, json: String)] = [("file", JSONObjectWriter.quoted(error.file))]
        switch error.position {
        case .line(let line, let column): details += [("line", String(line)), ("column", String(column))]
        case .byteOffset(let offset): details.append(("byteOffset", String(offset)))
        case .none: break
        }
        let status: HTTPResponse.Status = error.code == .unknownFormat ? .unsupportedMediaType : .unprocessableContent
        return APIError(status, code: error.code.rawValue, message: error.description, details: details)
    }

    /// `text` with an upload's path (`<uploads>/device-<device>/name`) shown as its name.
    static func shown(_ text: String, folder: String) -> String {
        text.replacingOccurrences(of: folder + "/", with: "")
    }

    /// `text` with every upload's folder left out.
    func shown(_ text: String) -> String {
        var text = text
        while let start = text.range(of: uploads + "/") {
            guard let slash = text[start.upperBound...].firstIndex(of: "/") else { break }
            text.removeSubrange(start.lowerBound...slash)
        }
        return text
    }

    /// The live progress of import `id`, when it runs in this process.
    func progress(of id: Int64) -> ImportProgress? {
        state.withLock { state in state.running.values.lazy.compactMap(\.progress).first { $0.importID == id } }
    }

    /// How import `id` ended, when it ended in this process.
    func outcome(of id: Int64) -> ImportOutcome? { state.withLock { $0.outcomes[id] } }
}

/// A value handed over once, to a receiver set before it is fired.
final class Once<Value: Sendable>: Sendable {
    private let receiver = Mutex<(@Sendable (Value) -> Void)?>(nil)

    func set(_ receive: @escaping @Sendable (Value) -> Void) { receiver.withLock { $0 = receive } }

    func fire(_ value: Value) {
        let receive = receiver.withLock { receiver in
            defer { receiver = nil }
            return receiver
        }
        receive?(value)
    }
}
