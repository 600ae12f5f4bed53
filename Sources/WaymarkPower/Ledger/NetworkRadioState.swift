import WaymarkCore

/// What a network radio (Wi-Fi, cellular) is doing because of Waymark's own traffic
/// (docs/semantics.md §4.1), by the tail model of its profile's `TransferTiming`: `off` while
/// Waymark holds no connection, `idle` while it holds one open (an MQTT session, the device
/// listener), `active` for a promotion out of `idle`/`off` and while bytes move, then `tail` until
/// the radio may drop back. An open connection with a keepalive sends a ping whenever it has been
/// quiet that long, which on LTE costs a whole tail.
///
/// Who pays: traffic's `active` and `tail` time goes to the parties whose bytes it carried since
/// the radio left `idle`/`off`, in proportion to their bytes; `idle` time to the parties holding
/// connections, evenly. Pure: the caller feeds what happened, at non-decreasing times, and prices
/// the changes it returns in the ledger.
public struct NetworkRadioState: Sendable {
    public enum State: String, Sendable { case off, idle, active, tail }

    /// A change of state or of who pays, from `time` on.
    public struct Change: Sendable, Equatable {
        public var time: Timestamp
        public var state: State
        public var parties: [String: Double]
    }

    /// Bytes a keepalive ping and its answer carry (MQTT PINGREQ + PINGRESP).
    public static let pingBytes = 4

    public let timing: TransferTiming
    public private(set) var state: State = .off
    private var latest: Timestamp
    private var activeUntil: Timestamp
    private var tailUntil: Timestamp
    /// Bytes by party since the radio left `idle`/`off`.
    private var burst: [String: Double] = [:]
    private var connections: [String: Connection] = [:]
    private var reported: (state: State, parties: [String: Double])? = nil

    private struct Connection: Sendable {
        var count: Int
        var keepalive: Double?
        var lastTraffic: Timestamp
    }

    public init(timing: TransferTiming, at time: Timestamp) {
        self.timing = timing
        latest = time
        activeUntil = time
        tailUntil = time
    }

    /// `bytes` sent and received for `party` at `time`.
    public mutating func transfer(_ bytes: Int, by party: String, at time: Timestamp) -> [Change] {
        var changes = advance(to: time)
        move(bytes, by: party, at: latest, into: &changes)
        return changes
    }

    /// `party` opened a connection (with a keepalive interval, if it pings) at `time`.
    public mutating func opened(by party: String, keepalive: Double? = nil, at time: Timestamp) -> [Change] {
        var changes = advance(to: time)
        connections[party, default: Connection(count: 0, keepalive: keepalive, lastTraffic: latest)].count += 1
        settle(at: latest, into: &changes)
        return changes
    }

    /// `party` closed a connection at `time`.
    public mutating func closed(by party: String, at time: Timestamp) -> [Change] {
        var changes = advance(to: time)
        connections[party]?.count -= 1
        if connections[party]?.count == 0 { connections[party] = nil }
        settle(at: latest, into: &changes)
        return changes
    }

    /// Everything due up to `time`: the end of a transfer, of a tail, keepalive pings.
    public mutating func advance(to time: Timestamp) -> [Change] {
        var changes: [Change] = []
        let target = max(time, latest)
        while let (due, kind) = nextDue(), due <= target {
            latest = max(latest, due)
            switch kind {
            case .endOfTransfer:
                state = .tail
                tailUntil = activeUntil.adding(seconds: timing.tailSeconds)
                report(at: activeUntil, into: &changes)
            case .endOfTail:
                burst = [:]
                state = .off
                settle(at: tailUntil, into: &changes)
            case .ping(let party):
                move(Self.pingBytes, by: party, at: due, into: &changes)
            }
        }
        latest = target
        return changes
    }

    private enum Due { case endOfTransfer, endOfTail, ping(String) }

    private func nextDue() -> (Timestamp, Due)? {
        var next: (Timestamp, Due)? = nil
        if state == .active { next = (activeUntil, .endOfTransfer) }
        if state == .tail { next = (tailUntil, .endOfTail) }
        for (party, connection) in connections.sorted(by: { $0.key < $1.key }) {
            guard let keepalive = connection.keepalive, keepalive > 0 else { continue }
            let due = connection.lastTraffic.adding(seconds: keepalive)
            if next == nil || due < next!.0 { next = (due, .ping(party)) }
        }
        return next
    }

    private mutating func move(_ bytes: Int, by party: String, at time: Timestamp, into changes: inout [Change]) {
        let seconds = Double(max(bytes, 0)) / timing.bytesPerSecond
        switch state {
        case .active:
            activeUntil = activeUntil.adding(seconds: seconds)
        case .tail:
            activeUntil = time.adding(seconds: seconds)
        case .idle, .off:
            burst = [:]
            activeUntil = time.adding(seconds: timing.promotionSeconds + seconds)
        }
        state = .active
        burst[party, default: 0] += Double(max(bytes, 1))
        connections[party]?.lastTraffic = time
        report(at: time, into: &changes)
    }

    /// Out of traffic: `idle` while a connection is held, else `off`.
    private mutating func settle(at time: Timestamp, into changes: inout [Change]) {
        guard state == .idle || state == .off else { return }
        state = connections.isEmpty ? .off : .idle
        report(at: time, into: &changes)
    }

    private mutating func report(at time: Timestamp, into changes: inout [Change]) {
        let parties: [String: Double] = switch state {
        case .active, .tail: burst
        case .idle: connections.mapValues { _ in 1 }
        case .off: [:]
        }
        if let reported, reported.state == state, reported.parties == parties { return }
        reported = (state, parties)
        changes.append(Change(time: time, state: state, parties: parties))
    }
}
