import WaymarkCore

/// The energy ledger (docs/semantics.md §4), pure: each radio is a state machine; energy is time in a
/// state × current × voltage (× the scan duty cycle for a scanning radio); the radio time is
/// split across the handlers that needed it, in proportion to their weights, and kept per hour,
/// radio, handler and state. Times come from the caller — the daemon's clock live, the track's
/// timeline in replay — so the arithmetic is tested with an injected clock.
public struct EnergyLedger: Sendable {
    /// The name radio time is charged to when no handler needed it (the daemon's own recording).
    public static let unattributed = "(daemon)"

    public let profiles: [Radio: PowerProfile]
    /// Accumulated energy and time, by bucket.
    public private(set) var entries: [LedgerKey: LedgerEntry] = [:]
    private var current: [Radio: Segment] = [:]

    /// What a radio is doing since `since`, and who it is for.
    struct Segment: Sendable {
        var state: String
        var since: Timestamp
        var dutyCycle: Double
        var handlers: [String: Double]
    }

    public init(profiles: [PowerProfile]) {
        var byRadio: [Radio: PowerProfile] = [:]
        for profile in profiles { byRadio[profile.radio] = profile }
        self.profiles = byRadio
    }

    /// From `time` on, `radio` is in `state` (a state of its profile), needed by `handlers`
    /// with relative weights (empty: the daemon itself). `dutyCycle` scales the draw of a
    /// radio that is on only part of the time (BLE scan window ÷ interval).
    public mutating func set(
        _ radio: Radio, to state: String, at time: Timestamp, dutyCycle: Double = 1, handlers: [String: Double] = [:]
    ) throws(LedgerError) {
        guard let profile = profiles[radio] else { throw .noProfile(radio) }
        guard profile.states[state] != nil else { throw .unknownState(radio, state, profile: profile.name) }
        guard dutyCycle >= 0 && dutyCycle <= 1 else { throw .invalidDutyCycle(dutyCycle) }
        guard handlers.values.allSatisfy({ $0 >= 0 && $0.isFinite }) else { throw .invalidWeight }
        try account(radio, until: time)
        current[radio] = Segment(state: state, since: time, dutyCycle: dutyCycle, handlers: handlers)
    }

    /// The latest time any radio changed state (nil before the first).
    public var latestChange: Timestamp? { current.values.map(\.since).max() }

    /// Accounts every radio's time up to `time` (call it before reading a report).
    public mutating func close(at time: Timestamp) throws(LedgerError) {
        for radio in current.keys.sorted(by: { $0.rawValue < $1.rawValue }) { try account(radio, until: time) }
    }

    private mutating func account(_ radio: Radio, until time: Timestamp) throws(LedgerError) {
        guard var segment = current[radio] else { return }
        guard time >= segment.since else { throw .timeBackwards(radio, from: segment.since, to: time) }
        let profile = profiles[radio]!
        let draw = profile.states[segment.state]!
        let total = segment.handlers.values.reduce(0, +)
        let shares = total > 0
            ? segment.handlers.filter { $0.value > 0 }.map { ($0.key, $0.value / total) }
            : [(Self.unattributed, 1.0)]
        // Split at hour boundaries, so each hour's bucket holds what happened in it.
        var start = segment.since
        while start < time {
            let hour = start.hourStart
            let end = min(time, hour.adding(seconds: 3600))
            let seconds = end.seconds(since: start)
            for (handler, share) in shares {
                let key = LedgerKey(hour: hour, radio: radio, handler: handler, profile: profile.name)
                entries[key, default: LedgerEntry()].add(
                    state: segment.state, seconds: seconds * share,
                    joules: seconds * share * draw.power * segment.dutyCycle)
            }
            start = end
        }
        segment.since = time
        current[radio] = segment
    }

    /// Joules by radio, by handler, or in total over the entries at or after `since`.
    public func joules(radio: Radio? = nil, handler: String? = nil, since: Timestamp? = nil) -> Double {
        entries.filter { key, _ in
            (radio == nil || key.radio == radio) && (handler == nil || key.handler == handler)
                && (since == nil || key.hour >= since!.hourStart)
        }.values.reduce(0) { $0 + $1.joules }
    }

    /// Accounts every radio's time up to `time`, then hands over what the entries hold and
    /// starts them afresh (the radios keep their states): the daemon adds what it takes to the
    /// store, whose buckets add up, so a bucket may be taken in several pieces.
    public mutating func take(at time: Timestamp) throws(LedgerError) -> [LedgerKey: LedgerEntry] {
        try close(at: time)
        defer { entries = [:] }
        return entries
    }

    /// Seconds a radio spent in `state`, summed over handlers' shares.
    public func seconds(_ radio: Radio, in state: String) -> Double {
        entries.filter { $0.key.radio == radio }.values.reduce(0) { $0 + ($1.seconds[state] ?? 0) }
    }
}

/// One bucket of the ledger: an hour, a radio, a handler, and the profile that priced it.
public struct LedgerKey: Sendable, Hashable {
    public var hour: Timestamp
    public var radio: Radio
    public var handler: String
    public var profile: String
}

public struct LedgerEntry: Sendable, Equatable {
    /// Seconds by state (the handler's share).
    public var seconds: [String: Double] = [:]
    /// Joules by state (the handler's share).
    public var joulesByState: [String: Double] = [:]
    /// Joules in all states.
    public var joules = 0.0

    mutating func add(state: String, seconds: Double, joules: Double) {
        self.seconds[state, default: 0] += seconds
        self.joulesByState[state, default: 0] += joules
        self.joules += joules
    }
}

public enum LedgerError: Error, Sendable, Equatable, CustomStringConvertible {
    case noProfile(Radio)
    case unknownState(Radio, String, profile: String)
    case invalidDutyCycle(Double)
    case invalidWeight
    case timeBackwards(Radio, from: Timestamp, to: Timestamp)

    public var description: String {
        switch self {
        case .noProfile(let radio): "no power profile for the \(radio.rawValue) radio"
        case .unknownState(let radio, let state, let profile): "profile \(profile) (\(radio.rawValue)) has no state '\(state)'"
        case .invalidDutyCycle(let value): "a duty cycle is between 0 and 1, not \(value)"
        case .invalidWeight: "handler weights are finite and ≥ 0"
        case .timeBackwards(let radio, let from, let to): "\(radio.rawValue): time went back from \(from.rfc3339) to \(to.rfc3339)"
        }
    }
}
