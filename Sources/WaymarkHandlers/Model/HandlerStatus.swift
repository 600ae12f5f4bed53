import Foundation
import WaymarkCore

/// A handler with its state and counters: one object of `GET /v1/handlers` and of
/// `waymark handlers list --json` (docs/handlers.md). The daemon fills every field; read from
/// the store alone (no daemon), the process fields are absent.
public struct HandlerStatus: Codable, Sendable, Equatable {
    /// Its recent background periods, and the share that earns it time (docs/handlers.md, "Standing").
    public struct Standing: Codable, Sendable, Equatable {
        public var periods: Int
        public var quick: Int
        public var slow: Int
        public var misreported: Int
        public var share: Double
        public var medianQuickSeconds: Double?

        public init(_ standing: HandlerStanding) {
            periods = standing.sessions.count
            quick = standing.count(.quick)
            slow = standing.count(.slow)
            misreported = standing.count(.misreported)
            share = standing.share
            medianQuickSeconds = standing.medianQuickSeconds
        }

        private enum CodingKeys: String, CodingKey { case periods, quick, slow, misreported, share, medianQuickSeconds }

        /// `medianQuickSeconds` is always there, null when no period was quick.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(periods, forKey: .periods)
            try c.encode(quick, forKey: .quick)
            try c.encode(slow, forKey: .slow)
            try c.encode(misreported, forKey: .misreported)
            try c.encode(share, forKey: .share)
            try c.encode(medianQuickSeconds, forKey: .medianQuickSeconds)
        }
    }

    /// Launches, resumes… since the daemon started.
    public struct Counters: Codable, Sendable, Equatable {
        public var launches: Int
        public var resumes: Int
        public var suspensions: Int
        public var terminations: Int
        public var crashes: Int

        public init(launches: Int, resumes: Int, suspensions: Int, terminations: Int, crashes: Int) {
            self.launches = launches
            self.resumes = resumes
            self.suspensions = suspensions
            self.terminations = terminations
            self.crashes = crashes
        }
    }

    public var name: String
    /// `notRunning`, `active`, `background`, `suspended`, `terminated`.
    public var state: String
    /// Its process, when the daemon has one running.
    public var pid: Int32?
    /// Seconds in `state`; nil without a daemon.
    public var stateSeconds: Double?
    public var forceQuit: Bool
    public var executable: String
    /// Nil without a daemon.
    public var counters: Counters?
    public var eventsQueued: Int
    public var eventsUnacknowledged: Int
    /// Background time per wake-up and its cap with tasks, after its standing (seconds).
    public var budgetSeconds: Double
    public var maximumBackgroundSeconds: Double
    public var standing: Standing
    /// How suspension stops it: `cgroup` (its cgroup frozen, children that left its session
    /// included) or `processGroup` (SIGSTOP to its process group); nil without a daemon.
    public var suspension: String?

    public init(
        name: String, state: String, pid: Int32? = nil, stateSeconds: Double? = nil, forceQuit: Bool, executable: String,
        counters: Counters? = nil, eventsQueued: Int, eventsUnacknowledged: Int, budgetSeconds: Double,
        maximumBackgroundSeconds: Double, standing: Standing, suspension: String? = nil
    ) {
        self.name = name
        self.state = state
        self.pid = pid
        self.stateSeconds = stateSeconds
        self.forceQuit = forceQuit
        self.executable = executable
        self.counters = counters
        self.eventsQueued = eventsQueued
        self.eventsUnacknowledged = eventsUnacknowledged
        self.budgetSeconds = budgetSeconds
        self.maximumBackgroundSeconds = maximumBackgroundSeconds
        self.standing = standing
        self.suspension = suspension
    }

    /// The JSON object on one line, keys sorted, as the API serves it.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    private enum CodingKeys: String, CodingKey {
        case name, state, pid, stateSeconds, forceQuit, executable, launches, resumes, suspensions, terminations, crashes
        case eventsQueued, eventsUnacknowledged, budgetSeconds, maximumBackgroundSeconds, standing, suspension
    }

    /// The counters sit beside the other fields in the JSON object, not nested.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        state = try c.decode(String.self, forKey: .state)
        pid = try c.decodeIfPresent(Int32.self, forKey: .pid)
        stateSeconds = try c.decodeIfPresent(Double.self, forKey: .stateSeconds)
        forceQuit = try c.decode(Bool.self, forKey: .forceQuit)
        executable = try c.decode(String.self, forKey: .executable)
        if let launches = try c.decodeIfPresent(Int.self, forKey: .launches) {
            counters = Counters(
                launches: launches, resumes: try c.decode(Int.self, forKey: .resumes),
                suspensions: try c.decode(Int.self, forKey: .suspensions), terminations: try c.decode(Int.self, forKey: .terminations),
                crashes: try c.decode(Int.self, forKey: .crashes))
        }
        eventsQueued = try c.decode(Int.self, forKey: .eventsQueued)
        eventsUnacknowledged = try c.decode(Int.self, forKey: .eventsUnacknowledged)
        budgetSeconds = try c.decode(Double.self, forKey: .budgetSeconds)
        maximumBackgroundSeconds = try c.decode(Double.self, forKey: .maximumBackgroundSeconds)
        standing = try c.decode(Standing.self, forKey: .standing)
        suspension = try c.decodeIfPresent(String.self, forKey: .suspension)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(state, forKey: .state)
        try c.encode(pid, forKey: .pid)
        try c.encodeIfPresent(stateSeconds, forKey: .stateSeconds)
        try c.encode(forceQuit, forKey: .forceQuit)
        try c.encode(executable, forKey: .executable)
        try c.encodeIfPresent(counters?.launches, forKey: .launches)
        try c.encodeIfPresent(counters?.resumes, forKey: .resumes)
        try c.encodeIfPresent(counters?.suspensions, forKey: .suspensions)
        try c.encodeIfPresent(counters?.terminations, forKey: .terminations)
        try c.encodeIfPresent(counters?.crashes, forKey: .crashes)
        try c.encode(eventsQueued, forKey: .eventsQueued)
        try c.encode(eventsUnacknowledged, forKey: .eventsUnacknowledged)
        try c.encode(budgetSeconds, forKey: .budgetSeconds)
        try c.encode(maximumBackgroundSeconds, forKey: .maximumBackgroundSeconds)
        try c.encode(standing, forKey: .standing)
        try c.encodeIfPresent(suspension, forKey: .suspension)
    }
}
