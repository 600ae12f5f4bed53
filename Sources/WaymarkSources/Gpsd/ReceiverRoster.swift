/// Receivers by gpsd path, from its DEVICES list (on each connection) and DEVICE reports
/// (activated or not): the attachments and removals since the first list. Pure.
struct ReceiverRoster: Sendable, Equatable {
    private var known: Set<String>?


    /// gpsd's list of active devices; the changes from the last known list, in path order.
    mutating func list(_ paths: [String]) -> [(path: String, attached: Bool)] {
        let now = Set(paths)
        defer { known = now }
        guard let known else { return [] }
        return (now.subtracting(known).map { ($0, true) } + known.subtracting(now).map { ($0, false) })
            .sorted { $0.0 < $1.0 }
    }

    /// One device activated (`true`) or deactivated; the change, if it is one.
    mutating func device(_ path: String, activated: Bool) -> (path: String, attached: Bool)? {
        var paths = known ?? []
        let changed = activated ? paths.insert(path).inserted : paths.remove(path) != nil
        let first = known == nil
        known = paths
        return changed && !first ? (path, activated) : nil
    }
}
