import WaymarkCore

/// The energy of the network radio Waymark's traffic uses (docs/semantics.md §4.1): its state
/// (`NetworkRadioState`) priced by its profile in a ledger of its own, per hour, state and party
/// (an output `output:NAME`, the device listener `(listener)`). Kept apart from the GNSS and
/// Bluetooth ledger because traffic comes from many tasks at once and at a high rate: the caller
/// serialises it (the daemon's `NetworkMeter`), and the buckets stay bounded however many
/// transfers there are.
public struct NetworkEnergy: Sendable {
    public var profile: PowerProfile { ledger.profiles[radio]! }
    public let radio: Radio
    private var radioState: NetworkRadioState
    private var ledger: EnergyLedger
    /// Joules handed over by `take` so far: those since the start, once brought up to now.
    public private(set) var takenJoules = 0.0

    /// Accounting starts at `time` with the radio `off` for Waymark.
    public init(profile: PowerProfile, at time: Timestamp) throws(LedgerError) {
        guard profile.radio.isNetwork, let timing = profile.transfer else { throw .noProfile(profile.radio) }
        radio = profile.radio
        radioState = NetworkRadioState(timing: timing, at: time)
        ledger = EnergyLedger(profiles: [profile])
        try ledger.set(radio, to: NetworkRadioState.State.off.rawValue, at: time)
    }

    /// What the radio is doing for Waymark, as of the last thing fed.
    public var state: NetworkRadioState.State { radioState.state }

    public mutating func transfer(_ bytes: Int, by party: String, at time: Timestamp) throws(LedgerError) {
        try apply(radioState.transfer(bytes, by: party, at: time))
    }

    public mutating func opened(by party: String, keepalive: Double? = nil, at time: Timestamp) throws(LedgerError) {
        try apply(radioState.opened(by: party, keepalive: keepalive, at: time))
    }

    public mutating func closed(by party: String, at time: Timestamp) throws(LedgerError) {
        try apply(radioState.closed(by: party, at: time))
    }

    /// Accounts up to `time` (tails ending, pings due) and hands over the buckets, emptied.
    public mutating func take(at time: Timestamp) throws(LedgerError) -> [LedgerKey: LedgerEntry] {
        try apply(radioState.advance(to: time))
        let entries = try ledger.take(at: max(time, ledger.latestChange ?? time))
        takenJoules += entries.values.reduce(0) { $0 + $1.joules }
        return entries
    }

    /// Joules since the start, up to `time`, without taking anything.
    public func joulesSinceStart(at time: Timestamp) -> Double {
        var open = self
        _ = try? open.take(at: time)
        return open.takenJoules
    }

    private mutating func apply(_ changes: [NetworkRadioState.Change]) throws(LedgerError) {
        for change in changes {
            try ledger.set(radio, to: change.state.rawValue, at: change.time, handlers: change.parties)
        }
    }
}
