import WaymarkCore
import WaymarkPower
import WaymarkStore

/// The energy ledger as the daemon keeps it live (docs/semantics.md §4): the radios' states follow
/// what the daemon does — watching gpsd or not, fixes coming or not, the Bluetooth scan
/// running — at the daemon's clock, and their time is charged to whoever needs each radio.
/// A value the pipeline owns; it does no I/O (the pipeline stores what `take` hands over).
struct LiveEnergy: Sendable {
    private var ledger: EnergyLedger
    private(set) var receiver = GNSSReceiverState()
    private var gnssStarted = false
    /// The Bluetooth scan's duty cycle while it runs; nil while it does not.
    private var scan: Double?
    private var bluetoothStarted = false
    private(set) var attribution = RadioAttribution()
    /// Never account backwards: a wall clock stepped back holds at the latest instant used.
    private var latest: Timestamp
    /// Joules handed over by `take`, by radio, since the daemon started.
    private var takenJoules: [Radio: Double] = [:]

    init(profiles: [PowerProfile], at time: Timestamp) {
        ledger = EnergyLedger(profiles: profiles)
        latest = time
    }

    /// Starts accounting the GNSS receiver (a gpsd source), off until it is watched.
    mutating func startGNSS(at time: Timestamp) throws(LedgerError) {
        gnssStarted = true
        try setGNSS(at: time)
    }

    /// gpsd is watched and reachable, or not.
    mutating func watching(_ on: Bool, at time: Timestamp) throws(LedgerError) {
        if receiver.watching(on) != nil { try setGNSS(at: time) }
    }

    /// A report with a fix.
    mutating func fix(at time: Timestamp) throws(LedgerError) {
        if receiver.fix() != nil { try setGNSS(at: time) }
    }

    /// A report without a fix (gpsd mode 0/1).
    mutating func noFix(at time: Timestamp) throws(LedgerError) {
        if receiver.noFix() != nil { try setGNSS(at: time) }
    }

    /// The Bluetooth scan runs with `dutyCycle` (window ÷ interval), or stopped (nil).
    mutating func scanning(_ dutyCycle: Double?, at time: Timestamp) throws(LedgerError) {
        bluetoothStarted = true
        scan = dutyCycle
        try setBluetooth(at: time)
    }

    /// Charges the radios' time from `time` on to these parties.
    mutating func attribute(_ next: RadioAttribution, at time: Timestamp) throws(LedgerError) {
        guard next != attribution else { return }
        let gnssChanged = next.gnss != attribution.gnss
        let bluetoothChanged = next.bluetooth != attribution.bluetooth
        attribution = next
        if gnssChanged { try setGNSS(at: time) }
        if bluetoothChanged { try setBluetooth(at: time) }
    }

    /// Everything accounted up to `time`, as store buckets (one per state), and the ledger
    /// emptied; the radios keep their states. Buckets with no time are left out.
    mutating func take(at time: Timestamp) throws(LedgerError) -> [EnergyBucket] {
        let entries = try ledger.take(at: clamped(time))
        for (key, entry) in entries { takenJoules[key.radio, default: 0] += entry.joules }
        return Self.buckets(entries)
    }

    /// Ledger entries as store buckets (one per state), in a stable order; no-time buckets left out.
    static func buckets(_ entries: [LedgerKey: LedgerEntry]) -> [EnergyBucket] {
        entries.sorted { ($0.key.hour, $0.key.radio.rawValue, $0.key.handler) < ($1.key.hour, $1.key.radio.rawValue, $1.key.handler) }
            .flatMap { key, entry in
                entry.seconds.keys.sorted().compactMap { state -> EnergyBucket? in
                    guard let seconds = entry.seconds[state], seconds > 0 else { return nil }
                    return EnergyBucket(
                        hour: key.hour, radio: key.radio.rawValue, handler: key.handler, profile: key.profile, state: state,
                        seconds: seconds, joules: entry.joulesByState[state] ?? 0)
                }
            }
    }

    /// Joules each accounted radio has used since the daemon started, up to `time` (for status
    /// and metrics; nothing is taken from the ledger).
    func joulesSinceStart(at time: Timestamp) -> [Radio: Double] {
        var open = ledger
        try? open.close(at: max(latest, time))
        var joules = takenJoules
        for radio in [Radio.gnss, .bluetooth] where (radio == .gnss ? gnssStarted : bluetoothStarted) {
            joules[radio, default: 0] += open.joules(radio: radio)
        }
        return joules
    }

    private mutating func setGNSS(at time: Timestamp) throws(LedgerError) {
        guard gnssStarted else { return }
        try ledger.set(.gnss, to: receiver.state.rawValue, at: clamped(time), handlers: attribution.gnss)
    }

    private mutating func setBluetooth(at time: Timestamp) throws(LedgerError) {
        guard bluetoothStarted else { return }
        try ledger.set(
            .bluetooth, to: scan == nil ? "off" : "scanning", at: clamped(time), dutyCycle: scan ?? 1,
            handlers: attribution.bluetooth)
    }

    private mutating func clamped(_ time: Timestamp) -> Timestamp {
        latest = max(latest, time)
        return latest
    }
}
