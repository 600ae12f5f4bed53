import Logging
import Synchronization
import WaymarkCore
import WaymarkDelivery
import WaymarkPower
import WaymarkStore

/// Where the daemon's network traffic is counted (docs/semantics.md §4.1): output deliveries
/// (webhooks, MQTT, Home Assistant) and the device listener report their bytes and connections
/// here, stamped by the daemon's clock, and the network radio's ledger (`NetworkEnergy`) prices
/// them; the pipeline takes its buckets with the other radios'. Without a network radio (wired,
/// or `power.network: none`) it only counts bytes.
public final class NetworkMeter: TrafficMeter {
    /// Parties that are not outputs: the device listener.
    public static let listener = "(listener)"

    private let clock: any WallClock
    private let logger: Logger
    private let state: Mutex<State>

    private struct State: Sendable {
        var energy: NetworkEnergy?
        var bytes: [String: Int] = [:]
        var failed = false
    }

    /// `profile`: the radio's profile, or nil when the traffic uses no radio.
    public init(profile: PowerProfile?, clock: any WallClock, logger: Logger) {
        self.clock = clock
        self.logger = logger
        var energy: NetworkEnergy? = nil
        if let profile {
            do {
                energy = try NetworkEnergy(profile: profile, at: clock.now)
            } catch {
                logger.error("Energy ledger refused the network radio", metadata: ["profile": "\(profile.name)", "error": "\(error)"])
            }
        }
        state = Mutex(State(energy: energy))
    }

    /// The radio being priced, if any, and its profile's name.
    public var radio: Radio? { state.withLock { $0.energy?.radio } }
    public var profileName: String? { state.withLock { $0.energy?.profile.name } }

    /// `bytes` sent and received for `party`.
    public func transfer(_ bytes: Int, by party: String) {
        update { state, now throws(LedgerError) in
            state.bytes[party, default: 0] += bytes
            try state.energy?.transfer(bytes, by: party, at: now)
        }
    }

    /// `party` holds a connection open from now on (pinging every `keepalive` seconds if quiet).
    public func opened(by party: String, keepalive: Double? = nil) {
        update { state, now throws(LedgerError) in try state.energy?.opened(by: party, keepalive: keepalive, at: now) }
    }

    public func closed(by party: String) {
        update { state, now throws(LedgerError) in try state.energy?.closed(by: party, at: now) }
    }

    /// Bytes counted by party since the start.
    public var bytes: [String: Int] { state.withLock { $0.bytes } }

    /// The network radio's buckets up to now, handed over and emptied.
    func take() -> [EnergyBucket] {
        var entries: [LedgerKey: LedgerEntry] = [:]
        update { state, now throws(LedgerError) in entries = try state.energy?.take(at: now) ?? [:] }
        return LiveEnergy.buckets(entries)
    }

    /// What the radio is doing for Waymark now and the joules it has used since the start: the
    /// ledger brought up to now once, on a copy, for both.
    func now() -> (state: String?, joules: Double?) {
        let now = clock.now
        return state.withLock { state in
            guard var energy = state.energy else { return (nil, nil) }
            _ = try? energy.take(at: now)
            return (energy.state.rawValue, energy.takenJoules)
        }
    }

    private func update(_ change: (inout State, Timestamp) throws(LedgerError) -> Void) {
        let failure: LedgerError? = state.withLock { state in
            do throws(LedgerError) {
                try change(&state, clock.now)
                return nil
            } catch {
                guard !state.failed else { return nil }
                state.failed = true
                return error
            }
        }
        if let failure { logger.error("Energy ledger refused network traffic", metadata: ["error": "\(failure)"]) }
    }
}
