import WaymarkCore

extension DaemonStatus {
    /// What the radios and the GNSS sampler are doing (docs/semantics.md §4), and the profiles that
    /// price them.
    public struct Power: Sendable, Equatable {
        /// How the daemon samples the GNSS.
        public enum Sampler: String, Sendable {
            /// Watched whenever something needs fixes (power-aware sampling off, or something
            /// needs every fix: recording, a live stream, standard updates).
            case continuous
            /// Power-aware, watching: after a wake-up, near a boundary, or with a crossing pending.
            case tracking
            /// Power-aware, not watching gpsd until `sleepingUntil`.
            case sleeping
        }

        public var gnssProfile: String
        /// `off`, `acquiring`, `tracking`; nil when the source has no receiver (a replay).
        public var gnssState: String?
        public var sampler: Sampler
        public var sleepingUntil: Timestamp?
        public var bluetoothProfile: String
        /// Joules each radio has used since the daemon started; nil when it is not accounted
        /// (no gpsd source, no Bluetooth scan).
        public var gnssJoules: Double?
        public var bluetoothJoules: Double?
        /// The radio Waymark's own traffic is priced on (outputs, the device listener).
        public var network = Network()

        /// `wifi` or `cellular` with its profile, its state for Waymark and its joules; all nil
        /// when the traffic uses no radio (wired, `power.network: none`). Bytes are counted
        /// either way.
        public struct Network: Sendable, Equatable {
            public var radio: String?
            public var profile: String?
            public var state: String?
            public var joules: Double?
            public var bytes = 0

            public init(radio: String? = nil, profile: String? = nil, state: String? = nil, joules: Double? = nil, bytes: Int = 0) {
                self.radio = radio
                self.profile = profile
                self.state = state
                self.joules = joules
                self.bytes = bytes
            }
        }

        public init(
            gnssProfile: String, gnssState: String?, sampler: Sampler, sleepingUntil: Timestamp?, bluetoothProfile: String,
            gnssJoules: Double? = nil, bluetoothJoules: Double? = nil
        ) {
            self.gnssProfile = gnssProfile
            self.gnssState = gnssState
            self.sampler = sampler
            self.sleepingUntil = sleepingUntil
            self.bluetoothProfile = bluetoothProfile
            self.gnssJoules = gnssJoules
            self.bluetoothJoules = bluetoothJoules
        }

        /// `{"gnss":{"profile","state","sampler","sleepingUntil","joulesSinceStart"},"bluetooth":{"profile","joulesSinceStart"},
        /// "network":{"radio","profile","state","joulesSinceStart","bytes"}}`
        var json: String {
            var gnss = JSONObjectWriter()
            gnss.add("profile", gnssProfile)
            gnss.add("state", gnssState)
            gnss.add("sampler", sampler.rawValue)
            gnss.add("sleepingUntil", sleepingUntil?.rfc3339)
            gnss.add("joulesSinceStart", gnssJoules)
            var bluetooth = JSONObjectWriter()
            bluetooth.add("profile", bluetoothProfile)
            bluetooth.add("joulesSinceStart", bluetoothJoules)
            var networkObject = JSONObjectWriter()
            networkObject.add("radio", network.radio)
            networkObject.add("profile", network.profile)
            networkObject.add("state", network.state)
            networkObject.add("joulesSinceStart", network.joules)
            networkObject.add("bytes", network.bytes)
            var w = JSONObjectWriter()
            w.addRaw("gnss", gnss.object)
            w.addRaw("bluetooth", bluetooth.object)
            w.addRaw("network", networkObject.object)
            return w.object
        }
    }
}
