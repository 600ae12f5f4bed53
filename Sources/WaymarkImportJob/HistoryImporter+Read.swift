import WaymarkImport
import WaymarkStore

extension HistoryImporter {
    /// Reads one entry in chunks; on an error, what was read before it is written first.
    ///
    /// A file's fault is an `ImportError`: the import records it and goes on to the next file.
    /// The store's (a full disk, say) is not: it ends the import, which the same command resumes.
    func read(
        _ entry: ImportEntry, of file: ImportFile, importID: Int64, request: ImportRequest, columns: CSVColumns?,
        report: ((inout ImportProgress) -> Void) -> Void
    ) throws {
        var opened = try entry.openReader(columns: columns)
        var chunk = ImportChunk()
        var reported = 0
        var entryBytes = 0
        report { $0.file = entry.name }
        func flush(final: Bool) throws {
            let reached = final ? (entry.size ?? opened.offset ?? entryBytes) : (opened.offset ?? entryBytes)
            // Progress counts the file's stored bytes, spread over its entries by their share.
            chunk.bytesRead = Int64(file.share(of: entry, bytes: reached - entryBytes))
            entryBytes = reached
            guard !chunk.isEmpty || chunk.bytesRead > 0 else { return }
            let written = try store.writeImportChunk(chunk, importID: importID, file: file.path, device: request.device)
            let bytes = chunk.bytesRead
            let items = Int64(chunk.fixes.count + reported)
            report {
                $0.bytesRead += bytes
                $0.itemsRead += items
                $0.fixesAdded += Int64(written.fixesAdded)
                $0.fixesPresent += Int64(written.fixesPresent)
                $0.reported += Int64(written.eventsAdded)
            }
            chunk = ImportChunk()
            reported = 0
        }
        do {
            while let item = try opened.reader.next() {
                switch item {
                case .fix(let fix):
                    guard fix.time != nil, fix.coordinate.isValid else { continue }
                    chunk.fixes.append(fix)
                case .reportedVisit(let visit):
                    chunk.events.append(visit.storedEvent)
                    reported += 1
                case .reportedActivity(let activity):
                    chunk.events.append(activity.storedEvent)
                    reported += 1
                }
                if chunk.fixes.count + chunk.events.count >= request.chunkSize { try flush(final: false) }
            }
        } catch {
            try flush(final: false)
            throw error
        }
        try flush(final: true)
    }
}

/// A file the user's paths led to, and the entries read from it (one, or an archive's members).
struct ImportFile {
    let path: String
    /// Its size on disk.
    let size: Int
    var entries: [ImportEntry]

    /// `bytes` of `entry`'s content as bytes of this file: an archive member's share of the
    /// archive is its stored size over its content size.
    func share(of entry: ImportEntry, bytes: Int) -> Int {
        guard let contentSize = entry.size, contentSize > 0 else { return bytes }
        return Int(Double(bytes) * Double(entry.storedSize) / Double(contentSize))
    }
}
