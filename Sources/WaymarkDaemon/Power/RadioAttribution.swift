import WaymarkPower

/// Who a radio's time is charged to, with weights (docs/semantics.md §4: shared radio time is split
/// across the handlers whose subscriptions needed it, in proportion).
///
/// The rule the daemon uses: every party that needs a radio weighs 1, so shared time is split
/// evenly among them. GNSS is needed by handlers with region, significant-change, visit or
/// standard subscriptions, and by the daemon itself (`(daemon)`) for recording fixes, configured
/// subscriptions, live-stream clients, and monitored regions when no handler subscribes to
/// regions. Bluetooth is needed by handlers with beacon or ranging subscriptions; with none,
/// the daemon's own beacon monitoring pays. An empty set charges `(daemon)` (the ledger's rule).
struct RadioAttribution: Sendable, Equatable {
    var gnss: [String: Double] = [:]
    var bluetooth: [String: Double] = [:]

    init() {}

    init(gnssHandlers: [String], daemonNeedsGNSS: Bool, bluetoothHandlers: [String]) {
        for name in gnssHandlers { gnss[name] = 1 }
        if daemonNeedsGNSS { gnss[EnergyLedger.unattributed] = 1 }
        for name in bluetoothHandlers { bluetooth[name] = 1 }
    }
}
