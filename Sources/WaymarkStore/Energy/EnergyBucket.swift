import WaymarkCore

/// One row of the energy ledger as stored (`energy` table): the time and energy one radio
/// spent in one state during one hour, charged to one handler and priced by one power profile.
public struct EnergyBucket: Sendable, Equatable {
    /// The start of the hour (UTC, a whole hour since 1970).
    public var hour: Timestamp
    /// `gnss`, `bluetooth`, `wifi` or `cellular`.
    public var radio: String
    /// The handler charged, or `(daemon)` for the daemon's own needs.
    public var handler: String
    /// The power profile that priced it (every estimate names its profile).
    public var profile: String
    /// The radio's state (`acquiring`, `tracking`, `scanning`, …).
    public var state: String
    /// Seconds in the state (the handler's share), ≥ 0.
    public var seconds: Double
    /// Joules, ≥ 0.
    public var joules: Double

    public init(hour: Timestamp, radio: String, handler: String, profile: String, state: String, seconds: Double, joules: Double) {
        self.hour = hour
        self.radio = radio
        self.handler = handler
        self.profile = profile
        self.state = state
        self.seconds = seconds
        self.joules = joules
    }
}
