import Foundation

/// Memory pressure (docs/semantics.md §1.4): running handlers are warned once per episode; while
/// it stays critical (two readings running) suspended handlers are purged, the largest first,
/// one a reading — besides the count limit (`purgeSuspended`).
extension HandlerLifecycle {
    /// Critical readings in a row before a purge.
    static let criticalReadingsBeforePurge = 2

    /// A reading of the memory pressure, with the resident size in bytes of each suspended
    /// handler's process (what a purge would give back).
    mutating func memoryPressure(_ level: MemoryPressure.Level, suspendedSizes: [String: Int]) {
        guard level != .normal else {
            memoryWarned = false
            criticalReadings = 0
            return
        }
        if !memoryWarned {
            memoryWarned = true
            for name in handlers.keys.sorted() {
                let handler = handlers[name]!
                if handler.running, handler.connected, handler.state != .suspended, handler.stopping == nil {
                    send(name, .didReceiveMemoryWarning)
                }
            }
        }
        guard level == .critical else {
            criticalReadings = 0
            return
        }
        criticalReadings += 1
        guard criticalReadings >= Self.criticalReadingsBeforePurge else { return }
        let candidates = handlers.filter { $0.value.state == .suspended && $0.value.running && $0.value.stopping == nil }
        guard let largest = candidates.keys.max(by: { (suspendedSizes[$0] ?? 0, $1) < (suspendedSizes[$1] ?? 0, $0) }) else { return }
        let megabytes = (suspendedSizes[largest] ?? 0) >> 20
        stop(largest, reason: "purged: memory pressure stays critical (\(megabytes) MiB resident)", signal: SIGKILL)
    }
}
