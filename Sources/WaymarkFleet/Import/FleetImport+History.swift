import Logging
import WaymarkCore
import WaymarkStore

extension FleetImport {
    /// Rows read from the SQLite store per round trip to PostgreSQL.
    static let historyChunk = 5_000

    /// Copies the store's fixes and events into the fleet's history, in chunks (the store is
    /// read off the cooperative pool, a chunk at a time, so memory stays flat). Imported fixes
    /// get the negated row id as their sequence and imported events the id `import/ROWID`,
    /// which no live fix or event has: importing twice stores everything once. Untimed fixes
    /// (none in a daemon's history) are skipped. Returns (fixes, events) read.
    static func importHistory(from store: WaymarkStore, into database: FleetDatabase) async throws -> (fixes: Int, events: Int) {
        var from: Timestamp?
        var seenAtFrom: Set<String> = []
        var counts = (fixes: 0, events: 0)
        while true {
            let query = HistoryQuery(from: from, kinds: [.fix, .event], limit: historyChunk)
            let items = try await store.offPool { store in
                var items: [HistoryItem] = []
                try store.history(query) { items.append($0) }
                return items
            }
            var batch = FleetBatch()
            batch.eventsPublished = true
            var newest = from
            var seenAtNewest = seenAtFrom
            var added = 0
            for item in items {
                let key = Self.key(item)
                // A chunk starts at the last one's newest instant (inclusive): skip what it had.
                if item.time == from, seenAtFrom.contains(key) { continue }
                if item.time != newest {
                    newest = item.time
                    seenAtNewest = []
                }
                seenAtNewest.insert(key)
                added += 1
                switch item {
                case .fix(let stored):
                    guard let time = stored.fix.time else { continue }
                    batch.fixes.append(FleetBatch.StoredFix(device: stored.device, sequence: -stored.id, fix: stored.fix, time: time))
                    counts.fixes += 1
                case .event(let event):
                    batch.events.append(
                        FleetBatch.StoredEvent(
                            id: "import/\(event.id ?? 0)", device: event.device, time: event.time, kind: event.kind.rawValue,
                            region: event.region, sequence: 0, record: event.record))
                    counts.events += 1
                case .gap:
                    continue
                }
            }
            if !batch.fixes.isEmpty || !batch.events.isEmpty { try await database.write(batch) }
            guard items.count == historyChunk else { break }
            guard added > 0 else {
                throw FleetError("more than \(historyChunk) history rows at \(newest?.rfc3339 ?? "one instant"): cannot page through them")
            }
            from = newest
            seenAtFrom = seenAtNewest
        }
        return counts
    }

    private static func key(_ item: HistoryItem) -> String {
        switch item {
        case .fix(let fix): "f\(fix.id)"
        case .event(let event): "e\(event.id ?? 0)"
        case .gap(let gap): "g\(gap.time.nanosecondsSince1970)"
        }
    }
}
