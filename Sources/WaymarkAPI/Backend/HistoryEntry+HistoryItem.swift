import WaymarkStore

extension HistoryEntry {
    /// A stored history item as the API serves it (the daemon's history and stream, the
    /// fleet's alike).
    public init(_ item: HistoryItem) {
        switch item {
        case .fix(let stored):
            self.init(kind: "fix", time: item.time, coordinate: stored.fix.coordinate, json: item.jsonLine, device: stored.device)
        case .gap(let gap):
            self.init(kind: "gap", time: item.time, coordinate: nil, json: item.jsonLine, device: gap.device)
        case .event(let event):
            self.init(kind: "event", time: item.time, coordinate: event.coordinate, json: event.jsonLineWithID, device: event.device)
        }
    }
}
