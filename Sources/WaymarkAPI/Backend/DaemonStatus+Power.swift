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

        /// `{"gnss":{"profile","state","sampler","sleepingUntil","joulesSinceStart"},"bluetooth":{"profile","joulesSinceStart"}}`
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
            var w = JSONObjectWriter()
            w.addRaw("gnss", gnss.object)
            w.addRaw("bluetooth", bluetooth.object)
            return w.object
        }
    }
}
