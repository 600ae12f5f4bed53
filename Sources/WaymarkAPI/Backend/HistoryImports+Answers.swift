import WaymarkCore
import WaymarkImportJob
import WaymarkStore

extension HistoryImports {
    /// `GET /v1/imports/{id}`: the stored record with its files, the live progress while it
    /// runs in this process, and how it ended when it ended here; nil for an unknown id.
    public func answer(id: Int64) async throws -> String? {
        guard let (record, files) = try await store.offPool({ store -> (ImportRecord, [ImportFileRecord])? in
            guard let record = try store.importRecord(id) else { return nil }
            return (record, try store.importFiles(id))
        }) else { return nil }
        return json(record, files: files)
    }

    /// `GET /v1/imports[?device=]`: every import, newest first, without their files.
    public func list(device: String?) async throws -> String {
        let records = try await store.offPool { try $0.importRecords(device: device) }
        return "{\"imports\":[" + records.map { json($0, files: nil) }.joined(separator: ",") + "]}"
    }

    /// `POST /v1/imports`' 202 answer: `{"id":N,"status":"/v1/imports/N","device":…,"name":…,"progress":{…}}`.
    func started(_ progress: ImportProgress, device: String, name: String) -> String {
        let id = Int(progress.importID ?? 0)
        var object = JSONObjectWriter()
        object.add("id", id)
        object.add("status", "/v1/imports/\(id)")
        object.add("device", device)
        object.add("name", name)
        object.addRaw("progress", shown(progress.json))
        return object.object
    }

    /// An import as `GET /v1/imports` shows it; uploads appear by their names.
    func json(_ record: ImportRecord, files: [ImportFileRecord]?) -> String {
        let live = progress(of: record.id)
        var object = JSONObjectWriter()
        object.add("id", Int(record.id))
        object.add("device", record.device)
        object.add("state", record.state.rawValue)
        // A record left reading or evaluating by a process that stopped: it resumes when the same
        // bytes are imported again.
        object.add("running", live != nil)
        object.add("started", record.started.rfc3339)
        object.add("finished", record.finished?.rfc3339)
        object.add("sources", record.sources.map(shown))
        object.add("deliver", record.deliver)
        if let bytesTotal = record.bytesTotal { object.add("bytesTotal", Int(bytesTotal)) }
        object.add("bytesRead", Int(record.bytesRead))
        object.add("added", Int(record.fixesAdded))
        object.add("present", Int(record.fixesPresent))
        object.add("reported", Int(record.reported))
        object.add("events", Int(record.events))
        object.add("error", record.error.map(shown))
        if let files { object.addRaw("files", "[" + files.map(json).joined(separator: ",") + "]") }
        object.addRaw("progress", live.map { shown($0.json) } ?? "null")
        if let outcome = outcome(of: record.id) {
            object.add("alreadyImported", outcome.alreadyImported.map(shown))
            object.addRaw("skipped", "[" + outcome.skipped.map { skippedJSON($0.name, $0.reason) }.joined(separator: ",") + "]")
            object.add("failures", outcome.failures.map { shown($0.description) })
        }
        return object.object
    }

    private func json(_ file: ImportFileRecord) -> String {
        var object = JSONObjectWriter()
        object.add("name", shown(file.name))
        object.add("digest", file.digest)
        object.add("size", Int(file.size))
        object.add("state", file.state.rawValue)
        object.add("added", Int(file.fixesAdded))
        object.add("present", Int(file.fixesPresent))
        object.add("reported", Int(file.reported))
        object.add("error", file.error.map(shown))
        return object.object
    }

    private func skippedJSON(_ name: String, _ reason: String) -> String {
        var object = JSONObjectWriter()
        object.add("name", shown(name))
        object.add("reason", reason)
        return object.object
    }
}
