import WaymarkCore

/// Where the JSON decoders put what one item gave: its items in order, and the counts the reader
/// reports. A class so a decoder step can fill it while the scanner owns the cursor; `restore`
/// undoes a step that is run again with more bytes.
final class JSONItemSink {
    var items: [ImportedItem] = []
    /// Positions that could not be used: an entry without coordinates or time, a line or point
    /// without times.
    var skipped = 0
    /// GeoJSON lines (LineString, MultiLineString) skipped for having no times.
    var untimedLines = 0
    /// Timed fixes given so far.
    var fixes = 0

    struct Snapshot {
        var count: Int
        var skipped: Int
        var untimedLines: Int
        var fixes: Int
    }

    var snapshot: Snapshot { Snapshot(count: items.count, skipped: skipped, untimedLines: untimedLines, fixes: fixes) }

    func restore(_ snapshot: Snapshot) {
        if items.count > snapshot.count { items.removeSubrange(snapshot.count...) }
        skipped = snapshot.skipped
        untimedLines = snapshot.untimedLines
        fixes = snapshot.fixes
    }

    func append(_ fix: Fix) {
        items.append(.fix(fix))
        fixes += 1
    }

    func append(_ visit: ReportedVisit) { items.append(.reportedVisit(visit)) }

    func append(_ activity: ReportedActivity) { items.append(.reportedActivity(activity)) }
}
