import WaymarkCore

extension ImportProgress {
    /// `{"type":"progress","import":7,"phase":"reading","file":…,"bytesRead":…,"bytesTotal":…,
    /// "items":…,"added":…,"present":…,"reported":…,"evaluated":…,"events":…,"elapsed":…,
    /// "bytesPerSecond":…,"remaining":…}`: one `--json` line, and `GET /v1/imports/{id}`'s `progress`.
    public var json: String {
        var object = JSONObjectWriter()
        object.add("type", "progress")
        if let importID { object.add("import", Int(importID)) }
        object.add("phase", phase.rawValue)
        object.add("file", file)
        object.add("bytesRead", Int(bytesRead))
        if let bytesTotal { object.add("bytesTotal", Int(bytesTotal)) }
        object.add("items", Int(itemsRead))
        object.add("added", Int(fixesAdded))
        object.add("present", Int(fixesPresent))
        object.add("reported", Int(reported))
        object.add("evaluated", Int(fixesEvaluated))
        object.add("events", Int(events))
        object.add("elapsed", (elapsed * 1000).rounded() / 1000)
        object.add("bytesPerSecond", rate.rounded())
        object.add("remaining", remaining.map { $0.rounded() })
        return object.object
    }
}

extension ImportOutcome {
    /// `{"type":"done","import":7,"state":"done","added":…,"present":…,"reported":…,"events":…,
    /// "alreadyImported":[…],"skipped":[{"name":…,"reason":…}],"failures":[…],"resumed":false}`.
    public var json: String {
        var object = JSONObjectWriter()
        object.add("type", "done")
        object.add("import", Int(record.id))
        object.add("device", record.device)
        object.add("state", record.state.rawValue)
        object.add("added", Int(record.fixesAdded))
        object.add("present", Int(record.fixesPresent))
        object.add("reported", Int(record.reported))
        object.add("events", Int(record.events))
        object.add("alreadyImported", alreadyImported)
        object.addRaw("skipped", "[" + skipped.map { Self.skippedJSON($0.name, $0.reason) }.joined(separator: ",") + "]")
        object.add("failures", failures.map(\.description))
        object.add("resumed", resumed)
        return object.object
    }

    private static func skippedJSON(_ name: String, _ reason: String) -> String {
        var object = JSONObjectWriter()
        object.add("name", name)
        object.add("reason", reason)
        return object.object
    }
}
