import WaymarkCore
import WaymarkPower

extension ModeSteering {
    /// What `waymark devices list`, `GET /v1/status` and the web page show of a phone's mode.
    public struct Snapshot: Sendable, Equatable {
        /// `off` or `auto` (`devices.power_policy`).
        public var policy: SteeringSettings.PowerPolicy
        /// The mode Waymark wants; nil before the first report or with the policy off.
        public var desired: PhoneMode?
        /// OwnTracks' `m` in the latest report: 1 significant, 2 move, 0 manual, -1 quiet.
        public var reportedMonitoring: Int?
        public var lastCommandAt: Timestamp?
        /// When a report first showed the phone in the wanted mode.
        public var confirmedAt: Timestamp?
        /// Commands sent for the wanted mode since it was last confirmed.
        public var attempts: Int
        /// The phone did not obey the bounded retries: remote configuration is off on it.
        public var ignoresCommands: Bool

        public init(
            policy: SteeringSettings.PowerPolicy, desired: PhoneMode? = nil, reportedMonitoring: Int? = nil, lastCommandAt: Timestamp? = nil,
            confirmedAt: Timestamp? = nil, attempts: Int = 0, ignoresCommands: Bool = false
        ) {
            self.policy = policy
            self.desired = desired
            self.reportedMonitoring = reportedMonitoring
            self.lastCommandAt = lastCommandAt
            self.confirmedAt = confirmedAt
            self.attempts = attempts
            self.ignoresCommands = ignoresCommands
        }

        /// The reported mode by name: `significant`, `move`, `manual`, `quiet`, or nil.
        public var reportedName: String? {
            switch reportedMonitoring {
            case 1: "significant"
            case 2: "move"
            case 0: "manual"
            case -1: "quiet"
            case let other?: String(other)
            case nil: nil
            }
        }
    }

    public var snapshot: Snapshot {
        Snapshot(
            policy: policy, desired: desired, reportedMonitoring: reportedMonitoring, lastCommandAt: lastCommandAt,
            confirmedAt: confirmedAt, attempts: attempts, ignoresCommands: ignoresCommands)
    }
}
